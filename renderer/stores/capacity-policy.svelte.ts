import type { AutoRenewalRequest, CapacityPolicy, ConfigureRequest, MessageResponse } from '../../shared/api/capacity.js';
import type { SourcedCapacityDetail } from '../../shared/ipc/sourced.js';
import type { CancelResult } from '../../shared/ipc/money-results.js';
import type { AppError, Result } from '../../shared/ipc/result.js';
import { api } from '../lib/api.js';
import { Resource } from '../lib/resource.svelte.js';
import { sessionScope } from '../lib/session-scope.js';
import { noLongerForSale, policyMayHaveChanged } from '../lib/policy-actions.js';
import { capacityList } from './capacity-list.svelte.js';
import { readyPolicies } from './capacity-search.svelte.js';
import { moneyLocks } from './money-locks.svelte.js';
import { statedFees } from './stated-fees.svelte.js';

/** One policy's describe view, as loaded; kept while the app runs so going back shows it at once. */
export class PolicyDetail {
  readonly read = new Resource<SourcedCapacityDetail>();

  constructor(readonly cidrId: string) {}

  get view(): SourcedCapacityDetail | null {
    return this.read.value;
  }

  get error(): AppError | null {
    return this.read.error;
  }

  get loading(): boolean {
    return this.read.loading;
  }

  /** ISO instant of the last answer. */
  get loadedAt(): string | null {
    return this.read.loadedAt;
  }

  async load(): Promise<void> {
    await this.read.load(() => api.capacity.describe({ cidrId: this.cidrId }));
  }

  /** A fresh record from purchase or configure: shown at once, before the describe view follows. */
  applyPolicy(policy: CapacityPolicy): void {
    const view = this.read.value;
    if (!view || policy.cidrId !== this.cidrId) return;
    this.read.value = {
      ...view,
      ...(view.policyDetails
        ? {
            policyDetails: {
              ...view.policyDetails,
              policyStatus: policy.policyStatus,
              policyOperatingState: policy.policyOperatingState,
            },
          }
        : {}),
      configuration: policy.capacityConfiguration,
      pricing: policy.pricing,
    };
  }
}

class PolicyDetails {
  #details = new Map<string, PolicyDetail>();

  constructor() {
    // Another user's policies must never show: their details, and any read still under way, are dropped.
    sessionScope.register(() => {
      for (const detail of this.#details.values()) detail.read.reset();
      this.#details.clear();
    });
  }

  /** The detail of a policy for the signed-in user. */
  get(cidrId: string): PolicyDetail {
    let detail = this.#details.get(cidrId);
    if (!detail) {
      detail = new PolicyDetail(cidrId);
      this.#details.set(cidrId, detail);
    }
    return detail;
  }

  /** Loads the policy again if it is cached (a change made elsewhere in the app). */
  refresh(cidrId: string): void {
    void this.#details.get(cidrId)?.load();
  }

  apply(policy: CapacityPolicy): void {
    this.#details.get(policy.cidrId)?.applyPolicy(policy);
  }
}

export const policyDetails = new PolicyDetails();

/**
 * The state-changing calls, each followed by what must be fetched again. The
 * main process sends one money request per policy at a time and locks the
 * policy while an outcome is unknown (kind 'unsettled'); after a failure the
 * lock's state is fetched so every button for the policy reflects it.
 */
export const capacityActions = {
  async purchase(cidrId: string): Promise<Result<CapacityPolicy>> {
    const result = await api.capacity.purchase({ cidrId });
    if (result.ok) {
      capacityList.replace(result.value);
      policyDetails.apply(result.value);
    }
    if (noLongerForSale(result)) readyPolicies.remove(cidrId);
    afterChange(cidrId, result);
    if (!result.ok) void moneyLocks.refresh(cidrId);
    return result;
  },

  async configure(body: ConfigureRequest): Promise<Result<CapacityPolicy>> {
    const result = await api.capacity.configure(body);
    if (result.ok) {
      capacityList.replace(result.value);
      policyDetails.apply(result.value);
      policyDetails.refresh(body.cidrId);
    }
    return result;
  },

  async setAutoRenewal(body: AutoRenewalRequest): Promise<Result<MessageResponse>> {
    const result = await api.capacity.setAutoRenewal(body);
    afterChange(body.cidrId, result);
    return result;
  },

  async cancel(cidrId: string): Promise<Result<CancelResult>> {
    const result = await api.capacity.cancel({ cidrId });
    afterChange(cidrId, result);
    // The stated fee is kept on success only; the Fee column and the overview read it from there.
    if (result.ok) void statedFees.load();
    if (!result.ok) void moneyLocks.refresh(cidrId);
    return result;
  },

  /** "Check status" settled an unknown outcome: what the policy now shows must be fetched again. */
  settled(cidrId: string): void {
    capacityList.invalidate();
    readyPolicies.invalidate();
    policyDetails.refresh(cidrId);
  },
};

/** A success changed the policy; a refusal may mean it changed elsewhere (another window): look again. */
function afterChange(cidrId: string, result: Result<unknown>): void {
  if (policyMayHaveChanged(result)) {
    capacityList.invalidate();
    readyPolicies.invalidate();
    policyDetails.refresh(cidrId);
  }
}
