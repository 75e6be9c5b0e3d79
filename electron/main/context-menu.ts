import { Menu, type BrowserWindow, type MenuItemConstructorOptions, type Session } from 'electron';
import { contextMenuTemplate, spellcheckPolicy, type ContextMenuAction, type ContextMenuItem } from '../services/desktop/context-menu.js';

/** The right-click menu of a window, built by contextMenuTemplate from each `context-menu` event. */
export function installContextMenu(window: BrowserWindow): void {
  const contents = window.webContents;
  const act = (action: ContextMenuAction): void => {
    if (action.kind === 'replace-misspelling') contents.replaceMisspelling(action.word);
    else contents.session.addWordToSpellCheckerDictionary(action.word);
  };
  const toElectron = (item: ContextMenuItem): MenuItemConstructorOptions => {
    const action = item.action;
    return {
      ...(item.id ? { id: item.id } : {}),
      ...(item.label ? { label: item.label } : {}),
      ...(item.role ? { role: item.role } : {}),
      ...(item.type ? { type: item.type } : {}),
      ...(item.enabled === false ? { enabled: false } : {}),
      ...(action ? { click: () => act(action) } : {}),
    };
  };
  contents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params);
    if (template.length > 0) Menu.buildFromTemplate(template.map(toElectron)).popup({ window });
  });
}

/** Applies the deliberate spellcheck choice of spellcheckPolicy (see its comment) to a session. */
export function applySpellcheckPolicy(session: Session, platform: NodeJS.Platform = process.platform): void {
  const policy = spellcheckPolicy(platform);
  if (policy.dictionaryDownloadUrl) session.setSpellCheckerDictionaryDownloadURL(policy.dictionaryDownloadUrl);
  session.setSpellCheckerEnabled(policy.enabled);
}
