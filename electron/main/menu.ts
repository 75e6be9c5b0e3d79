import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { MenuAction, MenuSpec } from '../services/desktop/app-menu.js';

/** Turns the tested menu template into Electron's application menu. */
export function installApplicationMenu(template: readonly MenuSpec[], onAction: (action: MenuAction) => void): void {
  const toElectron = (item: MenuSpec): MenuItemConstructorOptions => {
    const action = item.action;
    return {
      ...(item.id ? { id: item.id } : {}),
      ...(item.label ? { label: item.label } : {}),
      ...(item.role ? { role: item.role } : {}),
      ...(item.type ? { type: item.type } : {}),
      ...(item.accelerator ? { accelerator: item.accelerator } : {}),
      ...(item.registerAccelerator === false ? { registerAccelerator: false } : {}),
      ...(item.enabled === false ? { enabled: false } : {}),
      ...(item.submenu ? { submenu: item.submenu.map(toElectron) } : {}),
      ...(action ? { click: () => onAction(action) } : {}),
    };
  };
  Menu.setApplicationMenu(Menu.buildFromTemplate(template.map(toElectron)));
}
