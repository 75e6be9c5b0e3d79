import { describe, expect, it } from 'vitest';
import { MAIN_VIEW_IDS, MAIN_VIEWS } from '../../../shared/navigation/main-views.js';
import { accelerators, appMenuTemplate, type MenuSpec } from '../../../electron/services/desktop/app-menu.js';

const menu = (platform: NodeJS.Platform, extra: { devTools?: boolean; updatesAvailable?: boolean } = {}) =>
  appMenuTemplate({ platform, appName: 'Capacity Desk', devTools: extra.devTools ?? false, updatesAvailable: extra.updatesAvailable ?? true });

const flatten = (items: readonly MenuSpec[]): MenuSpec[] => items.flatMap((item) => [item, ...flatten(item.submenu ?? [])]);
const roles = (items: readonly MenuSpec[]) => flatten(items).flatMap((item) => (item.role ? [item.role] : []));
const byId = (items: readonly MenuSpec[], id: string) => flatten(items).find((item) => item.id === id);
const top = (items: readonly MenuSpec[], label: string) => items.find((item) => item.label === label);

describe('application menu', () => {
  it('has the macOS app menu with the standard roles', () => {
    const mac = menu('darwin');
    expect(mac[0]?.label).toBe('Capacity Desk');
    expect(roles([mac[0]!])).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect(mac.some((item) => item.role === 'windowMenu')).toBe(true);
  });

  it('has a Help menu with "Open Logs Folder" on every OS, and About in the macOS app menu only once', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const items = menu(platform);
      const help = items.at(-1)!;
      expect(help.role).toBe('help');
      expect(byId(help.submenu!, 'open-logs')?.action).toEqual({ kind: 'open-logs' });
      expect(flatten(items).filter((item) => item.id === 'about')).toHaveLength(1);
      expect(flatten(items).filter((item) => item.id === 'check-updates')).toHaveLength(1);
    }
    const mac = menu('darwin');
    expect(mac.map((item) => item.label ?? item.role)).toEqual(['Capacity Desk', '&File', '&Edit', '&Go', '&View', 'windowMenu', 'Help']);
    expect(byId([mac[0]!], 'about')?.role).toBe('about');
  });

  it('puts Preferences and Exit in File on Windows and Linux, About and updates in Help', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const items = menu(platform);
      expect(items.map((item) => item.label)).toEqual(['&File', '&Edit', '&Go', '&View', '&Window', '&Help']);
      expect(roles(top(items, '&File')!.submenu!)).toEqual(['quit']);
      expect(byId(top(items, '&File')!.submenu!, 'preferences')).toMatchObject({ accelerator: 'CmdOrCtrl+,', action: { kind: 'command', command: { kind: 'preferences' } } });
      expect(byId(top(items, '&Help')!.submenu!, 'about')?.role).toBe('about');
      expect(byId(items, 'check-updates')?.action).toEqual({ kind: 'check-updates' });
      expect(byId(top(items, '&Help')!.submenu!, 'open-logs')?.action).toEqual({ kind: 'open-logs' });
    }
  });

  it('has the standard Edit roles, so copy and paste work in every field', () => {
    expect(roles([top(menu('linux'), '&Edit')!])).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'delete', 'selectAll']);
    expect(roles([top(menu('darwin'), '&Edit')!])).toContain('pasteAndMatchStyle');
  });

  it('goes to every main view with Ctrl/Cmd+1..7, and back', () => {
    const go = top(menu('win32'), '&Go')!.submenu!;
    const views = go.filter((item) => item.id?.startsWith('go-') && item.id !== 'go-back');
    expect(views.map((item) => item.action)).toEqual(MAIN_VIEW_IDS.map((view) => ({ kind: 'command', command: { kind: 'go', view } })));
    expect(views.map((item) => item.accelerator)).toEqual(['CmdOrCtrl+1', 'CmdOrCtrl+2', 'CmdOrCtrl+3', 'CmdOrCtrl+4', 'CmdOrCtrl+5', 'CmdOrCtrl+6', 'CmdOrCtrl+7']);
    expect(byId(go, 'go-back')).toMatchObject({ accelerator: 'Alt+Left', action: { kind: 'command', command: { kind: 'back' } } });
    expect(byId(top(menu('darwin'), '&Go')!.submenu!, 'go-back')?.accelerator).toBe('Cmd+[');
  });

  it('shows Ctrl/Cmd+K for the command palette but leaves the key to the renderer', () => {
    expect(byId(menu('linux'), 'command-palette')).toMatchObject({
      accelerator: 'CmdOrCtrl+K',
      registerAccelerator: false,
      action: { kind: 'command', command: { kind: 'command-palette' } },
    });
  });

  it('never binds one shortcut twice', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const keys = accelerators(menu(platform, { devTools: true }));
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('offers developer tools only in a copy run from the sources', () => {
    expect(roles(menu('linux', { devTools: false }))).not.toContain('toggleDevTools');
    expect(roles(menu('linux', { devTools: true }))).toContain('toggleDevTools');
  });

  it('greys out "Check for Updates" where this copy cannot update', () => {
    expect(byId(menu('darwin', { updatesAvailable: false }), 'check-updates')?.enabled).toBe(false);
    expect(byId(menu('darwin', { updatesAvailable: true }), 'check-updates')?.enabled).toBe(true);
  });

  it('names and orders the views from the one table the renderer navigation also reads', () => {
    const go = top(menu('linux'), '&Go')!.submenu!.filter((item) => item.id?.startsWith('go-') && item.id !== 'go-back');
    expect(go.map((item) => [item.id, item.label])).toEqual(MAIN_VIEWS.map(({ view, label }) => [`go-${view}`, label]));
  });
});
