import type { Route } from '../stores/navigation.svelte.js';
import { startCustomerPage } from '../stores/customer-page.svelte.js';
import { renewalWorklist } from '../stores/renewal-worklist.svelte.js';

/**
 * What a route reads as it is entered (and again when coming back online
 * mounts its view anew): started beside the view's chunk, which is fetched on
 * first use, rather than after the view has loaded and mounted. The view
 * shows what its store holds.
 */
export function readForRoute(route: Route): void {
  if (route.view === 'renewals') void renewalWorklist.load();
  startCustomerPage(route.view === 'customer' ? route.key : null);
}
