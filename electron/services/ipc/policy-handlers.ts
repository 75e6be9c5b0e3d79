import type { Channel } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import type { LocalCapacityQuery } from '../../../shared/ipc/offline.js';
import type { ActivityLog } from '../activity/activity-log.js';
import type { MoneyActions } from '../money/money-actions.js';
import type { PolicyChanges } from '../money/policy-changes.js';
import type { PolicyRepository } from '../repository/policy-repository.js';
import type { SessionService } from '../session/session-service.js';

/** cyber.find looks a DR policy up by its customer: the customer book's (customer-handlers.ts). */
type PolicyChannel = Exclude<Extract<Channel, `${'capacity' | 'cyber' | 'accounts' | 'overview' | 'money' | 'activity'}.${string}`>, 'cyber.find'>;

export interface PolicyHandlerDeps {
  readonly session: Pick<SessionService, 'authorized'>;
  readonly repository: PolicyRepository;
  readonly money: MoneyActions;
  readonly changes: PolicyChanges;
  readonly activity: Pick<ActivityLog, 'list' | 'statedFees'>;
  /** The capacity list's query with its customer filter turned into that customer's accounts (customer-handlers.ts). */
  readonly scoped: (query: LocalCapacityQuery) => Promise<LocalCapacityQuery>;
}

/**
 * The policies: views read through the repository (the local replica where it
 * holds the answer, the service tolerantly otherwise: an odd item or group
 * never blanks a page); money actions and the other changes go through their
 * services, which record them and write their answers through before they return.
 */
export function createPolicyHandlers({ session, repository, money, changes, activity, scoped }: PolicyHandlerDeps): Pick<Handlers, PolicyChannel> {
  /** Sorting by the fee: each policy's stated fee, from the own data, goes with the query to the copy that orders it. */
  const withStatedFees = async <Q extends LocalCapacityQuery>(query: Q): Promise<Q> =>
    query.sortBy === 'fee' ? { ...query, statedFees: (await activity.statedFees()).map(({ cidrId, fee }): [string, number] => [cidrId, fee]) } : query;
  return {
    'accounts.list': () => repository.accounts(),
    'capacity.list': async (query) => repository.capacityList(await withStatedFees(await scoped(query))),
    'capacity.describe': ({ cidrId }) => repository.capacityDetail(cidrId),
    'capacity.search': (input) => session.authorized((client, token) => client.read('searchCapacity', { token, query: input })),
    'capacity.purchase': ({ cidrId }) => afterwards(money.purchase(cidrId), (policy) => repository.afterCapacityAction(cidrId, policy), () => repository.capacityMayHaveChanged()),
    'capacity.configure': (input) => changes.configure(input),
    'capacity.setAutoRenewal': (input) => changes.setAutoRenewal(input),
    'capacity.cancel': ({ cidrId }) => afterwards(money.cancel(cidrId), () => repository.afterCapacityAction(cidrId), () => repository.capacityMayHaveChanged()),
    'cyber.list': (input) => repository.cyberList(input),
    'cyber.view': ({ cidrId }) => repository.cyberView(cidrId),
    'cyber.terminate': ({ cidrId }) => afterwards(money.terminate(cidrId), () => repository.afterCyberAction(cidrId)),
    'overview.summary': () => repository.overview(),
    'money.state': async ({ cidrId }) => money.state(cidrId),
    // A check may settle an outcome as done (the service applied what the app never heard answered).
    'money.check': ({ cidrId }) => money.check(cidrId).finally(() => repository.capacityMayHaveChanged()),
    'activity.list': ({ policyKind, policyId }) => activity.list(policyKind, policyId),
    'activity.statedFees': () => activity.statedFees(),
  };
}

/**
 * The answer of a money action, once what follows it (write-through,
 * read-back) is done, so that whatever the window reads next already shows it.
 * What follows never fails the action: its own failures are reported. A
 * failure may still be a change the service made (its answer lost, the outcome
 * settled by the action's read-back): `failed` is told before it is passed on.
 */
async function afterwards<T>(action: Promise<T>, then: (answer: T) => Promise<void>, failed: () => void = () => undefined): Promise<T> {
  let answer: T;
  try {
    answer = await action;
  } catch (error) {
    failed();
    throw error;
  }
  await then(answer);
  return answer;
}
