import { describe, expect, it } from 'vitest';
import {
  contextMenuTemplate,
  MAX_SUGGESTIONS,
  NO_DICTIONARY_DOWNLOAD_URL,
  spellcheckPolicy,
  type ContextMenuFacts,
  type ContextMenuItem,
} from '../../../electron/services/desktop/context-menu.js';

const allowed = { canUndo: true, canRedo: true, canCut: true, canCopy: true, canPaste: true, canSelectAll: true };
const field: ContextMenuFacts = { isEditable: true, selectionText: '', misspelledWord: '', dictionarySuggestions: [], editFlags: allowed };
const facts = (change: Partial<ContextMenuFacts>): ContextMenuFacts => ({ ...field, ...change });
const roles = (items: readonly ContextMenuItem[]) => items.flatMap((item) => (item.role ? [[item.role, item.enabled]] : []));
const labels = (items: readonly ContextMenuItem[]) => items.map((item) => item.label ?? item.role ?? '---');

describe('right-click menu', () => {
  it('offers the edit commands in a field, each enabled as the edit flags say', () => {
    const items = contextMenuTemplate(facts({ editFlags: { ...allowed, canCut: false, canCopy: false, canUndo: false } }));
    expect(roles(items)).toEqual([
      ['undo', false],
      ['redo', true],
      ['cut', false],
      ['copy', false],
      ['paste', true],
      ['selectAll', true],
    ]);
    expect(items.some((item) => item.action)).toBe(false);
  });

  it('puts the dictionary suggestions first for a misspelled word, each replacing it, then "Add to Dictionary"', () => {
    const items = contextMenuTemplate(facts({ misspelledWord: 'capasity', dictionarySuggestions: ['capacity', 'capacious'] }));
    expect(labels(items).slice(0, 5)).toEqual(['capacity', 'capacious', '---', 'Add to Dictionary', '---']);
    expect(items[0]?.action).toEqual({ kind: 'replace-misspelling', word: 'capacity' });
    expect(items[1]?.action).toEqual({ kind: 'replace-misspelling', word: 'capacious' });
    expect(items.find((item) => item.id === 'context-add-to-dictionary')?.action).toEqual({ kind: 'add-to-dictionary', word: 'capasity' });
    expect(roles(items).map(([role]) => role)).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']);
  });

  it(`shows at most ${MAX_SUGGESTIONS} suggestions, and says so when there are none`, () => {
    const many = contextMenuTemplate(facts({ misspelledWord: 'teh', dictionarySuggestions: ['the', 'tea', 'ten', 'tech', 'eh', 'heh', 'Te'] }));
    expect(many.filter((item) => item.action?.kind === 'replace-misspelling')).toHaveLength(MAX_SUGGESTIONS);
    const none = contextMenuTemplate(facts({ misspelledWord: 'qzxv' }));
    expect(none[0]).toMatchObject({ label: 'No Spelling Suggestions', enabled: false });
    expect(none.find((item) => item.id === 'context-add-to-dictionary')).toBeDefined();
  });

  it('offers Copy and Select All for selected page text, and nothing for an unselected page', () => {
    expect(roles(contextMenuTemplate(facts({ isEditable: false, selectionText: 'POL-1001' })))).toEqual([
      ['copy', true],
      ['selectAll', true],
    ]);
    expect(contextMenuTemplate(facts({ isEditable: false, selectionText: '  ' }))).toEqual([]);
  });

  it('never offers spelling outside a field (a misspelled word reported for page text is ignored)', () => {
    const items = contextMenuTemplate(facts({ isEditable: false, selectionText: 'teh', misspelledWord: 'teh', dictionarySuggestions: ['the'] }));
    expect(items.some((item) => item.action)).toBe(false);
  });
});

describe('spellcheck policy', () => {
  it('uses the OS spellchecker on macOS, where Electron never downloads dictionaries', () => {
    expect(spellcheckPolicy('darwin')).toEqual({ enabled: true, dictionaryDownloadUrl: null });
  });

  it('uses the OS spellchecker on Windows and points any Hunspell download at a dead loopback address', () => {
    expect(spellcheckPolicy('win32')).toEqual({ enabled: true, dictionaryDownloadUrl: NO_DICTIONARY_DOWNLOAD_URL });
  });

  it('turns spellcheck off on Linux rather than fetch dictionaries from a CDN unasked', () => {
    expect(spellcheckPolicy('linux')).toEqual({ enabled: false, dictionaryDownloadUrl: NO_DICTIONARY_DOWNLOAD_URL });
    expect(new URL(NO_DICTIONARY_DOWNLOAD_URL).hostname).toBe('127.0.0.1');
  });
});
