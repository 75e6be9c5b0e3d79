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
