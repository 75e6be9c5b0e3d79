import type { ViewId } from '../stores/navigation.svelte.js';
import { LazyView } from './lazy-view.svelte.js';

/**
 * The views that are not the first screen, each in a chunk of its own (with
 * what only it uses: the search and purchase forms, the quote dialog, the
 * export and import code, the detail pages).
 */
export const lazyViews = {
  // The first screen only when no session is kept: a restored session opens on the overview.
  signIn: new LazyView('SignInView', () => import('./SignInView.svelte')),
  capacityList: new LazyView('CapacityListView', () => import('./capacity/CapacityListView.svelte')),
  capacityDetail: new LazyView('CapacityDetailView', () => import('./capacity/CapacityDetailView.svelte')),
  searchPurchase: new LazyView('SearchPurchaseView', () => import('./capacity/SearchPurchaseView.svelte')),
  offlineSearch: new LazyView('OfflineSearchView', () => import('./capacity/OfflineSearchView.svelte')),
  cyberList: new LazyView('CyberListView', () => import('./cyber/CyberListView.svelte')),
  cyberDetail: new LazyView('CyberDetailView', () => import('./cyber/CyberDetailView.svelte')),
  accounts: new LazyView('LinkedAccountsView', () => import('./accounts/LinkedAccountsView.svelte')),
  customers: new LazyView('CustomersView', () => import('./customers/CustomersView.svelte')),
  customerPage: new LazyView('CustomerPageView', () => import('./customers/CustomerPageView.svelte')),
  renewals: new LazyView('RenewalWorklistView', () => import('./renewals/RenewalWorklistView.svelte')),
};

/** The shell's dialogs that are not needed to paint the first screen. */
export const lazyDialogs = {
  commandPalette: new LazyView('CommandPalette', () => import('../components/CommandPalette.svelte')),
  preferences: new LazyView('PreferencesDialog', () => import('../components/PreferencesDialog.svelte')),
  reauth: new LazyView('ReauthDialog', () => import('../components/ReauthDialog.svelte')),
};

/** The chunk a main view's link opens (the overview and the search, which has two by connectivity, have none). */
const chunkOfMainView: Partial<Record<ViewId, { load(): Promise<void>; preload(): Promise<void> }>> = {
  // First: the browser fetches on a few connections at once, and the Renewals' first rows have a budget (issue 28).
  renewals: lazyViews.renewals,
  'capacity-list': lazyViews.capacityList,
  'cyber-list': lazyViews.cyberList,
  accounts: lazyViews.accounts,
  customers: lazyViews.customers,
};

/** The main views' chunks, fetched first after the first paint (`preloadViews`). */
export const mainViewChunks = Object.values(chunkOfMainView);

/**
 * Fetches the chunk of the view a link leads to when the pointer comes onto
 * it or it takes the focus (issue 28): before the idle preload has reached
 * it, the click then finds the chunk on its way or in, not yet to be asked.
 */
export function prefetchMainView(view: ViewId): void {
  void chunkOfMainView[view]?.load();
}
