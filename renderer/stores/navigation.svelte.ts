export const VIEWS = [{ id: 'accounts', label: 'Linked accounts' }] as const;
export type ViewId = (typeof VIEWS)[number]['id'];

class NavigationStore {
  current = $state<ViewId>('accounts');

  go(view: ViewId): void {
    this.current = view;
  }
}

export const navigation = new NavigationStore();
