import { z } from 'zod';
import { MESSAGE } from '../../shared/api/contract-choices.js';
import { describeIssues, parseJson } from '../http/body.js';
import { ApiError } from '../http/envelope.js';
import { json, type Reply } from '../http/reply.js';
import type { SandboxClock } from '../state/clock.js';
import type { FaultInjector} from './faults.js';
import { FaultRuleInput } from './faults.js';
import type { RequestStats } from './stats.js';

export const CONTROL_PREFIX = '/sandbox';

export const ResetInput = z
  .object({
    seed: z.number().int().optional(),
    scale: z.number().int().min(0).max(1_000_000).optional(),
  })
  .strict();
export type ResetInput = z.infer<typeof ResetInput>;

export const ClockInput = z
  .object({
    /** An absolute instant, ISO 8601 with Z or an offset. */
    now: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
    advanceSeconds: z.number({ error: 'must be a number' }).optional(),
    /** true stops the clock (exact boundaries in tests), false lets it run on. */
    frozen: z.boolean({ error: 'must be a boolean' }).optional(),
  })
  .strict();

export const RenameInput = z.object({ cidrId: z.string().min(1), policyName: z.string().max(1_000) }).strict();
export const RenameAccountInput = z.object({ username: z.string().min(1), accountId: z.string().min(1), accountName: z.string().min(1).max(1_000) }).strict();

export interface ControlDeps {
  readonly clock: SandboxClock;
  readonly faults: FaultInjector;
  readonly stats: RequestStats;
  /** Reseeds; answers what it seeded. */
  reset(input: ResetInput): Promise<unknown>;
  /** Saves the clock with the rest when there is a data file. */
  persist(): Promise<void>;
  /** Renames a capacity policy; undefined when there is none of that id. */
  rename(cidrId: string, policyName: string): unknown;
  /** Renames a user's linked account and the policies held in it; undefined when there is no such user or account. */
  renameAccount(username: string, accountId: string, accountName: string): unknown;
}

function parseControlBody<S extends z.ZodType>(body: Buffer, schema: S): z.output<S> {
  const value = body.length === 0 ? {} : parseJson(body);
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(400, describeIssues(result.error.issues));
  return result.data;
}

function clockBody(clock: SandboxClock) {
  return { now: clock.now().toISOString(), frozen: clock.frozen };
}

/** The test-only controls under /sandbox/. Null when the path is not one of them. */
export async function handleControl(method: string, path: string, body: Buffer, deps: ControlDeps): Promise<Reply | null> {
  const route = `${method} ${path.slice(CONTROL_PREFIX.length)}`;
  switch (route) {
    case 'POST /reset':
      return json(200, await deps.reset(parseControlBody(body, ResetInput)));
    case 'GET /clock':
      return json(200, clockBody(deps.clock));
    case 'POST /clock': {
      const input = parseControlBody(body, ClockInput);
      const frozen = input.frozen ?? deps.clock.frozen;
      if (input.now !== undefined) deps.clock.set(Date.parse(input.now), frozen);
      else deps.clock.setFrozen(frozen);
      if (input.advanceSeconds !== undefined) deps.clock.advance(input.advanceSeconds);
      await deps.persist();
      return json(200, clockBody(deps.clock));
    }
    case 'GET /faults':
      return json(200, { rules: deps.faults.list(), held: deps.faults.held });
    case 'POST /faults': {
      const id = deps.faults.add(parseControlBody(body, FaultRuleInput));
      return json(201, { id, rules: deps.faults.list() });
    }
    case 'DELETE /faults':
      deps.faults.clear();
      return json(200, { rules: [] });
    case 'GET /stats':
      return json(200, deps.stats.snapshot());
    case 'POST /rename': {
      const input = parseControlBody(body, RenameInput);
      const policy = deps.rename(input.cidrId, input.policyName);
      if (policy === undefined) throw new ApiError(404, MESSAGE.policyNotFound(input.cidrId));
      await deps.persist();
      return json(200, policy);
    }
    case 'POST /rename-account': {
      const input = parseControlBody(body, RenameAccountInput);
      const account = deps.renameAccount(input.username, input.accountId, input.accountName);
      if (account === undefined) throw new ApiError(404, `Account ${input.accountId} of ${input.username} not found`);
      await deps.persist();
      return json(200, account);
    }
    case 'POST /stats/reset':
      deps.stats.reset();
      return json(200, deps.stats.snapshot());
    default:
      return null;
  }
}
