import type { Result } from '../../shared/ipc/result.js';
import type { QuoteRequest, QuoteResult } from '../../shared/quote/quote.js';
import { api } from '../lib/api.js';
import { sessionScope } from '../lib/session-scope.js';

/** The ready policies picked for a quote, and the quote made of them by the main process. */
class QuoteStore {
  /** Picked policy ids, in the order picked (the quote lists them so). */
  picked = $state<string[]>([]);

  constructor() {
    // Another user's picks are not theirs.
    sessionScope.register(() => (this.picked = []));
  }

  has(cidrId: string): boolean {
    return this.picked.includes(cidrId);
  }

  toggle(cidrId: string): void {
    this.picked = this.has(cidrId) ? this.picked.filter((id) => id !== cidrId) : [...this.picked, cidrId];
  }

  clear(): void {
    this.picked = [];
  }

  create(request: QuoteRequest): Promise<Result<QuoteResult>> {
    return api.quote.create(request);
  }
}

export const quotes = new QuoteStore();
