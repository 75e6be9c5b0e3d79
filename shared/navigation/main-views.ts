/**
 * The main views, in order, with their names: the renderer's navigation and
 * command palette, the application menu's Go entries (Ctrl+1 to Ctrl+7) and
 * the commands the main process may send all read this one table. Detail
 * views are reached from their lists and are not in it.
 */
export const MAIN_VIEWS = [
  { view: 'overview', label: 'Overview' },
  { view: 'capacity-list', label: 'Capacity policies' },
  { view: 'search', label: 'Search & purchase' },
  { view: 'cyber-list', label: 'Disaster recovery' },
  { view: 'accounts', label: 'Linked accounts' },
  { view: 'customers', label: 'Customers' },
  { view: 'renewals', label: 'Renewals' },
] as const satisfies ReadonlyArray<{ readonly view: string; readonly label: string }>;

export type MainView = (typeof MAIN_VIEWS)[number]['view'];

export const MAIN_VIEW_IDS: readonly MainView[] = MAIN_VIEWS.map((item) => item.view);
