import type { ViewId } from '../stores/navigation.svelte.js';
import { LazyView } from './lazy-view.svelte.js';

/**
 * The views that are not the first screen, each in a chunk of its own (with
 * what only it uses: the search and purchase forms, the quote dialog, the
 * export and import code, the detail pages).
 */
export const lazyViews = {
  // The first screen only when no session is kept: a restored session opens on the overview.
  signIn: new LazyView(() => import('./SignInView.svelte')),
  capacityList: new LazyView(() => import('./capacity/CapacityListView.svelte')),
  capacityDetail: new LazyView(() => import('./capacity/CapacityDetailView.svelte')),
  searchPurchase: new LazyView(() => import('./capacity/SearchPurchaseView.svelte')),
  offlineSearch: new LazyView(() => import('./capacity/OfflineSearchView.svelte')),
  cyberList: new LazyView(() => import('./cyber/CyberListView.svelte')),
  cyberDetail: new LazyView(() => import('./cyber/CyberDetailView.svelte')),
  accounts: new LazyView(() => import('./accounts/LinkedAccountsView.svelte')),
  customers: new LazyView(() => import('./customers/CustomersView.svelte')),
  customerPage: new LazyView(() => import('./customers/CustomerPageView.svelte')),
  renewals: new LazyView(() => import('./renewals/RenewalWorklistView.svelte')),
};

/** The shell's dialogs that are not needed to paint the first screen. */
export const lazyDialogs = {
  commandPalette: new LazyView(() => import('../components/CommandPalette.svelte')),
  preferences: new LazyView(() => import('../components/PreferencesDialog.svelte')),
  reauth: new LazyView(() => import('../components/ReauthDialog.svelte')),
};

/** The chunk a main view's link opens (the overview and the search, which has two by connectivity, have none). */
const chunkOfMainView: Partial<Record<ViewId, { load(): Promise<void> }>> = {
  // First: the browser fetches on a few connections at once, and the Renewals' first rows have a budget (issue 28).
  renewals: lazyViews.renewals,
  'capacity-list': lazyViews.capacityList,
  'cyber-list': lazyViews.cyberList,
  accounts: lazyViews.accounts,
  customers: lazyViews.customers,
};

/** The main views' chunks, fetched at once after the first paint (`preloadViews`). */
export const mainViewChunks = Object.values(chunkOfMainView);

/**
 * Fetches the chunk of the view a link leads to when the pointer comes onto
 * it or it takes the focus (issue 28): before the idle preload has reached
 * it, the click then finds the chunk on its way or in, not yet to be asked.
 */
export function prefetchMainView(view: ViewId): void {
  void chunkOfMainView[view]?.load();
}
