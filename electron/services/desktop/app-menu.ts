import type { AppCommand } from '../../../shared/ipc/desktop.js';
import { MAIN_VIEWS } from '../../../shared/navigation/main-views.js';

/** Electron menu roles this app uses (each is a standard, OS-native item). */
export type MenuRole =
  | 'about'
  | 'services'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'quit'
  | 'close'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'pasteAndMatchStyle'
  | 'delete'
  | 'selectAll'
  | 'reload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'minimize'
  | 'zoom'
  | 'appMenu'
  | 'windowMenu'
  | 'help';

/** What an app-specific item does when chosen. */
export type MenuAction =
  | { readonly kind: 'command'; readonly command: AppCommand }
  | { readonly kind: 'check-updates' }
  | { readonly kind: 'open-logs' };

/** A menu item as data, free of Electron, so the template can be tested in Node. */
export interface MenuSpec {
  /** Stable handle for the app's own items (the _electron tests click them by id). */
  readonly id?: string;
  readonly label?: string;
  readonly role?: MenuRole;
  readonly type?: 'separator';
  readonly accelerator?: string;
  /** False: the shortcut is shown but left to the page (the renderer handles the key itself). */
  readonly registerAccelerator?: boolean;
  readonly action?: MenuAction;
  readonly enabled?: boolean;
  readonly submenu?: readonly MenuSpec[];
}

export interface MenuOptions {
  readonly platform: NodeJS.Platform;
  readonly appName: string;
  /** Developer tools only in a copy run from the source tree. */
  readonly devTools: boolean;
  readonly updatesAvailable: boolean;
}

const separator: MenuSpec = { type: 'separator' };
const command = (id: string, label: string, accelerator: string | undefined, appCommand: AppCommand): MenuSpec => ({
  id,
  label,
  ...(accelerator ? { accelerator } : {}),
  action: { kind: 'command', command: appCommand },
});

/**
 * The application menu: the standard roles each OS expects (the macOS app
 * menu, Edit, View, Window) plus the app's own shortcuts (go to a view, back,
 * the command palette, preferences, check for updates).
 */
export function appMenuTemplate(options: MenuOptions): MenuSpec[] {
  const mac = options.platform === 'darwin';
  const preferences = command('preferences', mac ? 'Settings…' : 'Preferences…', 'CmdOrCtrl+,', { kind: 'preferences' });
  const checkUpdates: MenuSpec = { id: 'check-updates', label: 'Check for Updates…', action: { kind: 'check-updates' }, enabled: options.updatesAvailable };

  const appMenu: MenuSpec = {
    label: options.appName,
    submenu: [
      { id: 'about', role: 'about', label: `About ${options.appName}` },
      checkUpdates,
      separator,
      preferences,
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };
  const file: MenuSpec = {
    label: '&File',
    submenu: mac ? [{ role: 'close' }] : [preferences, separator, { role: 'quit', label: 'E&xit' }],
  };
  const edit: MenuSpec = {
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  };
  const go: MenuSpec = {
    label: '&Go',
    submenu: [
      command('go-back', 'Back', mac ? 'Cmd+[' : 'Alt+Left', { kind: 'back' }),
      separator,
      ...MAIN_VIEWS.map(({ view, label }, index) => command(`go-${view}`, label, `CmdOrCtrl+${index + 1}`, { kind: 'go', view })),
      separator,
      // The renderer owns Ctrl/Cmd+K; the menu shows it and opens the palette when clicked.
      { ...command('command-palette', 'Command Palette…', 'CmdOrCtrl+K', { kind: 'command-palette' }), registerAccelerator: false },
    ],
  };
  const view: MenuSpec = {
    label: '&View',
    submenu: [
      { role: 'reload' },
      ...(options.devTools ? [{ role: 'toggleDevTools' } as const] : []),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
  // macOS's Window menu is the system one (it also lists open windows).
  const window: MenuSpec = mac ? { role: 'windowMenu' } : { label: '&Window', submenu: [{ role: 'minimize' }, { role: 'close' }] };
  // How the service's answers differed from this version's: for a support ticket (paths only).
  const diagnostics = command('contract-diagnostics', 'Contract Diagnostics…', undefined, { kind: 'diagnostics' });
  // Support asks for the logs; they are redacted, so handing the folder over is safe.
  const openLogs: MenuSpec = { id: 'open-logs', label: 'Open Logs Folder', action: { kind: 'open-logs' } };
  // Every OS has a Help menu. On macOS About and updates live in the app menu
  // (the 'help' role adds the system's search field); elsewhere they are here.
  const help: MenuSpec = {
    label: mac ? 'Help' : '&Help',
    role: 'help',
    submenu: mac ? [openLogs, diagnostics] : [{ id: 'about', role: 'about', label: `About ${options.appName}` }, checkUpdates, openLogs, diagnostics],
  };
  if (mac) return [appMenu, file, edit, go, view, window, help];
  return [file, edit, go, view, window, help];
}

/** Every item with an accelerator, flattened: for the checks that no two shortcuts collide. */
export function accelerators(template: readonly MenuSpec[]): string[] {
  return template.flatMap((item) => [...(item.accelerator ? [item.accelerator] : []), ...accelerators(item.submenu ?? [])]);
}
