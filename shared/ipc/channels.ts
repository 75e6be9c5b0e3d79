/**
 * The names of every IPC channel and push event, with nothing else, so the
 * preload can expose them without carrying the schemas. contract.ts must give
 * each name its schemas (the compiler checks both lists agree).
 */
export const CHANNELS = [
  'profiles.list',
  'session.status',
  'session.signIn',
  'session.signOut',
  'session.demoAccounts',
  'session.signInDemo',
  'accounts.list',
  'capacity.list',
  'capacity.describe',
  'capacity.search',
  'capacity.purchase',
  'capacity.configure',
  'capacity.setAutoRenewal',
  'capacity.cancel',
  'cyber.list',
  'cyber.view',
  'cyber.terminate',
  'profiles.save',
  'profiles.remove',
  'profiles.rememberCustomer',
  'network.status',
  'network.checkService',
  'offline.status',
  'offline.enter',
  'offline.leave',
  'offline.sync',
  'offline.cancelSync',
  'offline.wipe',
  'owndata.wipe',
  'overview.summary',
  'files.saveCsv',
  'files.saveSheet',
  'app.info',
  'updates.status',
  'updates.check',
  'updates.install',
  'preferences.get',
  'preferences.set',
  'money.state',
  'money.check',
  'diagnostics.contractDrift',
  'app.unreadableFiles',
  'views.state',
  'views.setState',
  'activity.list',
  'activity.statedFees',
  'quote.create',
  'customers.list',
  'customers.save',
  'customers.remove',
  'customers.import',
  'customers.propose',
  'customers.page',
  'customers.policies',
  'customers.overview',
  'cyber.find',
  'worklist.query',
  'worklist.setEntry',
  'reminders.take',
  'worklist.exportCalendar',
] as const;
export type Channel = (typeof CHANNELS)[number];

export const EVENTS = ['session.changed', 'session.expiring', 'offline.syncProgress', 'offline.copyChanged', 'updates.changed', 'app.command', 'money.changed', 'network.serviceChanged'] as const;
export type EventName = (typeof EVENTS)[number];

export type GroupOf<C extends string> = C extends `${infer G}.${string}` ? G : never;
export type MethodOf<C extends string> = C extends `${string}.${infer M}` ? M : never;

export function splitChannel(channel: string): [group: string, method: string] {
  const dot = channel.indexOf('.');
  return [channel.slice(0, dot), channel.slice(dot + 1)];
}

/** The Electron IPC channel string for a contract channel (kept apart from any other use of ipc). */
export function ipcChannelName(channel: Channel): string {
  return `capacity-desk:${channel}`;
}
export function ipcEventName(event: EventName): string {
  return `capacity-desk-event:${event}`;
}
