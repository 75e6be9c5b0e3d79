import type { MenuItemConstructorOptions } from 'electron';

/** What the tested, Electron-free menu templates (application and context menu) describe of an item. */
export interface MenuItemSpec<Action> {
  readonly id?: string;
  readonly label?: string;
  readonly role?: MenuItemConstructorOptions['role'];
  readonly type?: 'separator';
  readonly accelerator?: string;
  readonly registerAccelerator?: boolean;
  readonly enabled?: boolean;
  readonly action?: Action;
  readonly submenu?: readonly MenuItemSpec<Action>[];
}

/** One template item as Electron's menu item; its action goes to `onAction` when clicked. */
export function toElectronItem<Action>(item: MenuItemSpec<Action>, onAction: (action: Action) => void): MenuItemConstructorOptions {
  const action = item.action;
  return {
    ...(item.id ? { id: item.id } : {}),
    ...(item.label ? { label: item.label } : {}),
    ...(item.role ? { role: item.role } : {}),
    ...(item.type ? { type: item.type } : {}),
    ...(item.accelerator ? { accelerator: item.accelerator } : {}),
    ...(item.registerAccelerator === false ? { registerAccelerator: false } : {}),
    ...(item.enabled === false ? { enabled: false } : {}),
    ...(item.submenu ? { submenu: item.submenu.map((child) => toElectronItem(child, onAction)) } : {}),
    ...(action !== undefined ? { click: () => onAction(action) } : {}),
  };
}
