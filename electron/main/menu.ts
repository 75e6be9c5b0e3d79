import { Menu } from 'electron';
import type { MenuAction, MenuSpec } from '../services/desktop/app-menu.js';
import { toElectronItem } from './menu-item.js';

/** Turns the tested menu template into Electron's application menu. */
export function installApplicationMenu(template: readonly MenuSpec[], onAction: (action: MenuAction) => void): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(template.map((item) => toElectronItem(item, onAction))));
}
