import { completeCapacityView } from '../../../shared/api/readers.js';
import type { CapacityView } from '../../../shared/api/capacity.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import { UNKNOWN_TERMS } from '../../../shared/money/agreement-terms.js';
import { buildQuote, quoteText, type QuoteRequest, type QuoteResult } from '../../../shared/quote/quote.js';
import type { ActivityLog } from '../activity/activity-log.js';
import { safeFileName } from '../files/save-file.js';
import type { ProfileRegistry } from '../profiles/profile-registry.js';
import type { PolicyRepository } from '../repository/policy-repository.js';
import type { SessionService } from '../session/session-service.js';
import { renderQuotePdf } from './quote-pdf.js';

export interface QuoteDeps {
  readonly repository: Pick<PolicyRepository, 'capacityDetail'>;
  readonly profiles: Pick<ProfileRegistry, 'find'>;
  readonly session: Pick<SessionService, 'status'>;
  readonly activity: Pick<ActivityLog, 'owner' | 'recordAll'>;
  readonly now?: () => Date;
}

const READY = 'READY_FOR_PURCHASE';

/**
 * quote.create: each policy read as views read it (the service, else the local
 * copy), only ready-for-purchase ones quoted, under the environment's terms;
 * the quote is recorded in each policy's activity record.
 */
export function createQuoteHandlers(deps: QuoteDeps): Pick<Handlers, 'quote.create'> {
  return {
    'quote.create': async (request) => {
      const views = await Promise.all(request.policyIds.map((cidrId) => readyView(deps.repository, cidrId)));
      const terms = deps.profiles.find(deps.session.status().profileId)?.terms ?? UNKNOWN_TERMS;
      return createQuote(request, views, terms, deps);
    },
  };
}

async function readyView(repository: QuoteDeps['repository'], cidrId: string): Promise<CapacityView> {
  const view = completeCapacityView(await repository.capacityDetail(cidrId));
  if (!view) throw new AppFailure({ kind: 'invalid-input', field: 'policyIds', message: `Policy ${cidrId} could not be read in full, so it cannot be quoted.` });
  if (view.policyDetails.policyStatus !== READY) {
    throw new AppFailure({
      kind: 'conflict',
      field: 'policyIds',
      message: `Policy ${cidrId} is ${view.policyDetails.policyStatus.toLowerCase().replace(/_/g, ' ')}: a quote offers only policies ready for purchase.`,
    });
  }
  return view;
}

/** The quote's PDF and text from policies already read; recorded once both exist. */
export async function createQuote(
  request: QuoteRequest,
  views: readonly CapacityView[],
  terms: Parameters<typeof buildQuote>[2],
  deps: Pick<QuoteDeps, 'activity' | 'now'>,
): Promise<QuoteResult> {
  const quote = buildQuote(request, views, terms, (deps.now ?? (() => new Date()))());
  const pdf = await renderQuotePdf(quote);
  const owner = deps.activity.owner();
  // One write for all of them: a quote of 20 policies waited for 20 syncs to disk (seconds on a busy disk).
  await deps.activity.recordAll(
    owner,
    quote.lines.map((line) => ({ subject: { policyKind: 'capacity', cidrId: line.cidrId, action: 'quote' }, outcome: 'succeeded', facts: { price: line.ourPrice } })),
  );
  return {
    fileName: safeFileName(`Quote ${quote.customerName} ${quote.preparedAt}`, 'pdf'),
    pdfBase64: Buffer.from(pdf.bytes).toString('base64'),
    text: quoteText(quote),
    replacedCharacters: pdf.replacedCharacters,
  };
}
