import { MAIN_VIEWS as VIEWS } from '../../shared/navigation/main-views.js';

/**
 * Where the user is. Routes are values (no URLs: a desktop app has no address
 * bar), with a back stack so Alt+Left / the Back button work as expected.
 */
export type Route =
  | { readonly view: 'overview' }
  | { readonly view: 'capacity-list' }
  | { readonly view: 'capacity-detail'; readonly cidrId: string }
  | { readonly view: 'search' }
  | { readonly view: 'cyber-list' }
  | { readonly view: 'cyber-detail'; readonly cidrId: string }
  | { readonly view: 'accounts' }
  | { readonly view: 'customers' }
  | { readonly view: 'customer'; readonly key: string }
  | { readonly view: 'renewals' };

export type ViewId = Route['view'];

/** The main-navigation entry a route belongs to (a detail view belongs to its list). */
export function sectionOf(view: ViewId): ViewId {
  if (view === 'capacity-detail') return 'capacity-list';
  if (view === 'cyber-detail') return 'cyber-list';
  if (view === 'customer') return 'customers';
  return view;
}

/** The main navigation, in order, as routes: the one table of views in shared/navigation/main-views.ts. */
export const MAIN_VIEWS: ReadonlyArray<{ readonly route: Route; readonly label: string }> = VIEWS.map(({ view, label }) => ({ route: { view }, label }));

/** Asked before leaving a view (with where to); a view with unsaved changes returns false to stay. */
export type LeaveGuard = (to?: Route) => boolean;

export class NavigationStore {
  current = $state<Route>({ view: 'overview' });
  #back: Route[] = [];
  #guard: LeaveGuard | null = null;

  go(route: Route): boolean {
    if (sameRoute(route, this.current)) return true;
    if (this.#guard && !this.#guard(route)) return false;
    this.#guard = null;
    this.#back.push(this.current);
    if (this.#back.length > 50) this.#back.shift();
    this.current = route;
    return true;
  }

  back(): boolean {
    const previous = this.#back.at(-1);
    if (!previous) return false;
    if (this.#guard && !this.#guard(previous)) return false;
    this.#guard = null;
    this.#back.pop();
    this.current = previous;
    return true;
  }

  get canGoBack(): boolean {
    return this.#back.length > 0;
  }

  /** A view with unsaved work registers a guard; it returns the function that removes it. */
  guardLeaving(guard: LeaveGuard): () => void {
    this.#guard = guard;
    return () => {
      if (this.#guard === guard) this.#guard = null;
    };
  }
}

function sameRoute(a: Route, b: Route): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export const navigation = new NavigationStore();
