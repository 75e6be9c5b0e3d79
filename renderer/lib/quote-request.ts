import type { SearchInput } from '../../shared/api/capacity.js';
import { offsetName } from './dates.js';

/**
 * When no ready policy fits a search: the request for the operations team
 * to prepare one, as plain text to paste into a message, with the search's
 * parameters exactly as searched.
 */
export function quoteRequestText(search: SearchInput, context: { readonly environment: string; readonly readyMatching: number }): string {
  return [
    'Capacity request: no ready policy fits this search',
    `Instance type: ${search.instanceType}`,
    `Platform: ${search.platform}`,
    `Availability zone: ${search.availabilityZone}`,
    `Window: ${search.startDate} to ${search.endDate} (dates MM/dd/yyyy at ${offsetName(search.clientUtcOffset)})`,
    `Ready policies of this type, platform and zone: ${context.readyMatching}, none inside a free run of the window`,
    `Environment: ${context.environment}`,
    'Please prepare a policy for this window, or tell me the nearest window you can offer.',
  ].join('\n');
}
