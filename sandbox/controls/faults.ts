import { z } from 'zod';
import { API_PREFIX } from '../../shared/api/contract-choices.js';
import { Rng } from '../seed/prng.js';

const rate = z.number().min(0).max(1);
const count = z.number().int().min(1);

/** One fault rule, as POST /sandbox/faults takes it. Every part is optional. */
export const FaultRuleInput = z
  .object({
    /** Only requests whose path starts with this; default: every API path. */
    pathPrefix: z.string().startsWith('/').default(API_PREFIX),
    /** Only this method; default: any. */
    method: z.enum(['GET', 'POST', 'PUT', 'DELETE']).optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    /** Holds each matching request, before it is handled, until the faults are cleared (DELETE /sandbox/faults): a test releases it when it is ready, not after a time. */
    hold: z.boolean().optional(),
    errorRate: rate.optional(),
    errorStatus: z.number().int().min(400).max(599).default(500),
    /** Stop injecting errors after this many (a burst when errorRate is 1). */
    errorCount: count.optional(),
    dropRate: rate.optional(),
    dropCount: count.optional(),
    /** The request is carried out, then the connection is destroyed without its answer (a money action's lost answer). */
    dropAnswerRate: rate.optional(),
    dropAnswerCount: count.optional(),
    malformedRate: rate.optional(),
    malformedCount: count.optional(),
    /** Makes the real handler throw, to reach the server's own 500 path. */
    throwRate: rate.optional(),
    throwCount: count.optional(),
    /**
     * The answer is made at once, from the state as it is then, and held back until the faults are cleared
     * (DELETE /sandbox/faults, or a reset): a page read before an action that arrives after it, without a timer.
     */
    holdAnswers: z.boolean().optional(),
    /** Seed of the rule's dice, so a run repeats. */
    seed: z.number().int().default(1),
  })
  .strict();
export type FaultRuleInput = z.input<typeof FaultRuleInput>;
type FaultRule = z.output<typeof FaultRuleInput>;

export interface FaultDecision {
  latencyMs: number;
  drop: boolean;
  /** Carried out, then the connection destroyed without the answer (`dropAnswerRate`). */
  dropAnswer: boolean;
  errorStatus: number | null;
  throwInHandler: boolean;
  malformed: boolean;
  /** Held before the handler runs (`hold`). */
  holdRequest: boolean;
  /** Answered at once, the answer held back (`holdAnswers`). */
  holdAnswer: boolean;
}

interface ActiveRule {
  readonly id: number;
  readonly rule: FaultRule;
  readonly rng: Rng;
  fired: { error: number; drop: number; dropAnswer: number; malformed: number; throw: number };
}

/** Test-only fault injection: latency, errors, dropped connections, broken JSON. */
export class FaultInjector {
  private rules: ActiveRule[] = [];
  private nextId = 1;
  /** Lets the answers held until now go: the faults were cleared. */
  private release: () => void = () => undefined;
  private released: Promise<void> = this.nextRelease();
  /** Requests and answers held back now (hold, holdAnswers). */
  private heldNow = 0;

  add(rule: FaultRule): number {
    const id = this.nextId++;
    this.rules.push({ id, rule, rng: new Rng(rule.seed), fired: { error: 0, drop: 0, dropAnswer: 0, malformed: 0, throw: 0 } });
    return id;
  }

  clear(): void {
    this.rules = [];
    this.release();
    this.released = this.nextRelease();
  }

  /** A request or an answer already made, held back until the faults are next cleared (hold, holdAnswers). */
  async hold(): Promise<void> {
    this.heldNow += 1;
    try {
      await this.released;
    } finally {
      this.heldNow -= 1;
    }
  }

  /** How many requests and answers are held back now. */
  get held(): number {
    return this.heldNow;
  }

  private nextRelease(): Promise<void> {
    return new Promise((resolve) => {
      this.release = resolve;
    });
  }

  list(): { id: number; rule: FaultRule; fired: ActiveRule['fired'] }[] {
    return this.rules.map(({ id, rule, fired }) => ({ id, rule, fired: { ...fired } }));
  }

  get active(): boolean {
    return this.rules.length > 0;
  }

  decide(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, drop: false, dropAnswer: false, errorStatus: null, throwInHandler: false, malformed: false, holdRequest: false, holdAnswer: false };
    for (const active of this.rules) {
      const { rule } = active;
      if (!path.startsWith(rule.pathPrefix) || (rule.method && rule.method !== method)) continue;
      decision.latencyMs += rule.latencyMs ?? 0;
      if (!decision.drop && this.roll(active, 'drop', rule.dropRate, rule.dropCount)) decision.drop = true;
      if (!decision.dropAnswer && this.roll(active, 'dropAnswer', rule.dropAnswerRate, rule.dropAnswerCount)) decision.dropAnswer = true;
      if (decision.errorStatus === null && this.roll(active, 'error', rule.errorRate, rule.errorCount))
        decision.errorStatus = rule.errorStatus;
      if (!decision.throwInHandler && this.roll(active, 'throw', rule.throwRate, rule.throwCount)) decision.throwInHandler = true;
      if (!decision.malformed && this.roll(active, 'malformed', rule.malformedRate, rule.malformedCount)) decision.malformed = true;
      if (rule.hold) decision.holdRequest = true;
      if (rule.holdAnswers) decision.holdAnswer = true;
    }
    return decision;
  }

  private roll(active: ActiveRule, kind: keyof ActiveRule['fired'], probability: number | undefined, limit: number | undefined): boolean {
    if (!probability) return false;
    if (limit !== undefined && active.fired[kind] >= limit) return false;
    if (active.rng.next() >= probability) return false;
    active.fired[kind]++;
    return true;
  }
}
