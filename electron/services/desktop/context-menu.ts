/**
 * The right-click menu, as data: Electron shows none by default, so without it
 * cut/copy/paste and spelling suggestions are out of reach of the mouse.
 * Built from the facts of Electron's `context-menu` event (electron/main/context-menu.ts
 * passes them in and carries out the actions); tested in test/unit/desktop/context-menu.test.ts.
 */

/** The part of Electron's ContextMenuParams the menu depends on. */
export interface ContextMenuFacts {
  readonly isEditable: boolean;
  readonly selectionText: string;
  /** Empty when the word under the pointer is spelled right (or spellcheck is off). */
  readonly misspelledWord: string;
  readonly dictionarySuggestions: readonly string[];
  readonly editFlags: {
    readonly canUndo: boolean;
    readonly canRedo: boolean;
    readonly canCut: boolean;
    readonly canCopy: boolean;
    readonly canPaste: boolean;
    readonly canSelectAll: boolean;
  };
}

export type ContextMenuRole = 'undo' | 'redo' | 'cut' | 'copy' | 'paste' | 'selectAll';

export type ContextMenuAction =
  | { readonly kind: 'replace-misspelling'; readonly word: string }
  | { readonly kind: 'add-to-dictionary'; readonly word: string };

export interface ContextMenuItem {
  /** Stable handle (the _electron tests find items by it). */
  readonly id?: string;
  readonly label?: string;
  readonly role?: ContextMenuRole;
  readonly type?: 'separator';
  readonly enabled?: boolean;
  readonly action?: ContextMenuAction;
}

/** Chromium offers a handful; more than this makes the menu a list to read rather than a choice. */
export const MAX_SUGGESTIONS = 5;

const separator: ContextMenuItem = { type: 'separator' };
const edit = (role: ContextMenuRole, enabled: boolean): ContextMenuItem => ({ id: `context-${role}`, role, enabled });

/**
 * Spelling first (suggestions, then "Add to Dictionary"), then the edit
 * commands, each enabled as Chromium's edit flags say. Empty when there is
 * nothing to offer (a right-click on plain, unselected page text): no menu.
 */
export function contextMenuTemplate(facts: ContextMenuFacts): ContextMenuItem[] {
  const flags = facts.editFlags;
  const spelling: ContextMenuItem[] = [];
  const word = facts.misspelledWord.trim();
  if (facts.isEditable && word !== '') {
    const suggestions = facts.dictionarySuggestions.slice(0, MAX_SUGGESTIONS);
    spelling.push(
      ...(suggestions.length > 0
        ? suggestions.map((suggestion, index): ContextMenuItem => ({
            id: `context-suggestion-${index}`,
            label: suggestion,
            action: { kind: 'replace-misspelling', word: suggestion },
          }))
        : [{ id: 'context-no-suggestions', label: 'No Spelling Suggestions', enabled: false }]),
      separator,
      { id: 'context-add-to-dictionary', label: 'Add to Dictionary', action: { kind: 'add-to-dictionary', word } },
      separator,
    );
  }
  if (facts.isEditable) {
    return [
      ...spelling,
      edit('undo', flags.canUndo),
      edit('redo', flags.canRedo),
      separator,
      edit('cut', flags.canCut),
      edit('copy', flags.canCopy),
      edit('paste', flags.canPaste),
      separator,
      edit('selectAll', flags.canSelectAll),
    ];
  }
  if (facts.selectionText.trim() !== '') return [edit('copy', flags.canCopy), separator, edit('selectAll', flags.canSelectAll)];
  return [];
}

/**
 * Where spelling is checked, decided rather than left to Electron's default,
 * which on Windows and Linux fetches Hunspell dictionaries from Google's CDN
 * the first time a field is focused:
 * - macOS: the OS spellchecker (Electron never downloads there).
 * - Windows: the OS spellchecker (Windows Spell Checking API) for the
 *   languages it has; the download of Hunspell dictionaries for the others is
 *   pointed at a dead loopback address, so nothing leaves the computer.
 * - Linux: no OS spellchecker exists, and a corporate app must not fetch
 *   dictionaries from a third party unasked: spellcheck is off (so is the
 *   download, should anything turn it back on).
 * docs/release.md ("Runtime behaviour per OS") says the same for support.
 */
export interface SpellcheckPolicy {
  readonly enabled: boolean;
  /** Where Chromium may fetch Hunspell dictionaries from; null leaves Electron's (no-op on macOS). */
  readonly dictionaryDownloadUrl: string | null;
}

/** Port 9 (discard) on loopback: a download attempt fails at once and reaches no one. */
export const NO_DICTIONARY_DOWNLOAD_URL = 'http://127.0.0.1:9/';

export function spellcheckPolicy(platform: NodeJS.Platform): SpellcheckPolicy {
  if (platform === 'darwin') return { enabled: true, dictionaryDownloadUrl: null };
  if (platform === 'win32') return { enabled: true, dictionaryDownloadUrl: NO_DICTIONARY_DOWNLOAD_URL };
  return { enabled: false, dictionaryDownloadUrl: NO_DICTIONARY_DOWNLOAD_URL };
}
