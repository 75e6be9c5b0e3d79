import { Menu, type BrowserWindow, type Session } from 'electron';
import { contextMenuTemplate, spellcheckPolicy, type ContextMenuAction } from '../services/desktop/context-menu.js';
import { toElectronItem } from './menu-item.js';

/** The right-click menu of a window, built by contextMenuTemplate from each `context-menu` event. */
export function installContextMenu(window: BrowserWindow): void {
  const contents = window.webContents;
  const act = (action: ContextMenuAction): void => {
    if (action.kind === 'replace-misspelling') contents.replaceMisspelling(action.word);
    else contents.session.addWordToSpellCheckerDictionary(action.word);
  };
  contents.on('context-menu', (_event, params) => {
    const template = contextMenuTemplate(params);
    if (template.length > 0) Menu.buildFromTemplate(template.map((item) => toElectronItem(item, act))).popup({ window });
  });
}

/** Applies the deliberate spellcheck choice of spellcheckPolicy (see its comment) to a session. */
export function applySpellcheckPolicy(session: Session, platform: NodeJS.Platform = process.platform): void {
  const policy = spellcheckPolicy(platform);
  if (policy.dictionaryDownloadUrl) session.setSpellCheckerDictionaryDownloadURL(policy.dictionaryDownloadUrl);
  session.setSpellCheckerEnabled(policy.enabled);
}
