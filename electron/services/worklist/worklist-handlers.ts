import type { Channel } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import type { CurrentReplica } from '../replica/current-replica.js';
import { deliverFile, safeFileName, type SaveFileHost } from '../files/save-file.js';
import { calendarOfMilestones } from './calendar-export.js';
import type { CustomerNamer } from './customer-of.js';
import type { RenewalReminders } from './renewal-reminders.js';
import type { RenewalWorklist } from './renewal-worklist.js';

type WorklistChannel = Extract<Channel, `${'worklist' | 'reminders'}.${string}`>;

export interface WorklistHandlerDeps {
  readonly worklist: Pick<RenewalWorklist, 'query' | 'setEntry'>;
  /** Renewal reminders from the local copy, each given once. */
  readonly reminders: Pick<RenewalReminders, 'take'>;
  readonly replica: Pick<CurrentReplica, 'readWithHealth'>;
  /** The customer book's namer of a policy's account (customer-handlers.ts). */
  readonly customerOf: CustomerNamer;
  /** Where exports go: Electron's save dialog; absent in the browser host, whose page downloads them. */
  readonly saveFile?: SaveFileHost | undefined;
  /** The clock the calendar reads (tests set it). */
  readonly now?: (() => Date) | undefined;
}

/** The renewal worklist: its rows and the account manager's entries, the reminders, the calendar of launches and ends. */
export function createWorklistHandlers({ worklist, reminders, replica, customerOf, saveFile, now }: WorklistHandlerDeps): Pick<Handlers, WorklistChannel> {
  return {
    'worklist.query': (query) => worklist.query(query),
    'worklist.setEntry': (input) => worklist.setEntry(input),
    'reminders.take': () => reminders.take(),
    'worklist.exportCalendar': async (input) => {
      const { content, events, window } = await calendarOfMilestones(input, { replica, customerOf, ...(now ? { now } : {}) });
      // Dated, so that this week's file and next week's are told apart in a downloads folder or a mail.
      const name = safeFileName(`Launches and ends${input.customer ? ` ${input.customer}` : ''} ${window.from} to ${window.to}`, 'ics');
      return deliverFile({ suggestedName: name, content, filter: { name: 'Calendar (iCalendar)', extensions: ['ics'] } }, events, saveFile);
    },
  };
}
