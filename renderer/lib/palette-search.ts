/**
 * Ranking for the command palette: policies by id, name, instance type or
 * zone, best match first (active before finished among equals), forgiving of case, separators ("Web-tier" finds
 * "web tier") and small typos ("web tir" finds "Web tier").
 *
 * It takes any list of entries (the palette's index today, the full local
 * replica later) and stays fast at 100,000 of them: what is derived from an
 * entry is computed once per entry object, and only the best `limit` matches
 * are kept, never the whole list sorted (see bench/palette-search.bench.ts).
 */

import { CAPACITY_STATUSES } from '../../shared/api/contract-choices.js';

export interface PolicyEntry {
  readonly cidrId: string;
  readonly policyName: string;
  readonly policyStatus: string;
  readonly instanceType?: string | undefined;
  readonly availabilityZone?: string | undefined;
}

interface Prepared {
  readonly id: string;
  readonly name: string;
  readonly nameWords: readonly string[];
  /** Name, instance type and zone, folded, for the word-by-word and typo-tolerant matches. */
  readonly all: string;
  readonly allWords: readonly string[];
}

const prepared = new WeakMap<PolicyEntry, Prepared>();

/** Lower case, and any run of separators as one space: "Web-tier_1" and "web tier 1" read the same. */
export function fold(text: string): string {
  return text.toLowerCase().replace(/[\s\-_./,:;]+/g, ' ').trim();
}

function prepare(entry: PolicyEntry): Prepared {
  let found = prepared.get(entry);
  if (found === undefined) {
    const name = fold(entry.policyName);
    const all = [name, fold(entry.instanceType ?? ''), fold(entry.availabilityZone ?? '')].filter(Boolean).join(' ');
    found = { id: entry.cidrId.toLowerCase(), name, nameWords: name.split(' '), all, allWords: all.split(' ') };
    prepared.set(entry, found);
  }
  return found;
}

/** Typos forgiven in one word of the query: none in short words, where one change makes another word. */
function typosAllowed(word: string): number {
  if (word.length < 3) return 0;
  return word.length < 7 ? 1 : 2;
}

/**
 * The fewest edits (insert, delete, change, swap of neighbours) that turn
 * `word` into some beginning of `target`, or Infinity when more than `max`.
 */
export function prefixDistance(word: string, target: string, max: number): number {
  const n = word.length;
  const m = Math.min(target.length, n + max);
  if (m < n - max || m >= ROW_LENGTH) return Infinity;
  // Three reused rows: this runs for many entries on every keystroke.
  let before = rows[0];
  let previous = rows[1];
  let current = rows[2];
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let rowBest = i;
    for (let j = 1; j <= m; j++) {
      const cost = word.charCodeAt(i - 1) === target.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && word.charCodeAt(i - 1) === target.charCodeAt(j - 2) && word.charCodeAt(i - 2) === target.charCodeAt(j - 1)) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current[j] = value;
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > max) return Infinity;
    [before, previous, current] = [previous, current, before];
  }
  // Any beginning of the target: the best of the last row.
  let best = Infinity;
  for (let j = 0; j <= m; j++) if (previous[j]! < best) best = previous[j]!;
  return best;
}

const ROW_LENGTH = 256;
const rows: [Uint16Array, Uint16Array, Uint16Array] = [new Uint16Array(ROW_LENGTH), new Uint16Array(ROW_LENGTH), new Uint16Array(ROW_LENGTH)];

/** Total typos for every query word to begin some word of the entry, or null when one cannot. */
function typoScore(words: readonly string[], item: Prepared): number | null {
  let total = 0;
  for (const word of words) {
    if (item.all.includes(word)) continue;
    const max = typosAllowed(word);
    if (max === 0) return null;
    let best = Infinity;
    for (const target of item.allWords) {
      // A typo seldom hits the first letter; requiring it keeps 100,000 entries fast.
      if (target.charCodeAt(0) !== word.charCodeAt(0)) continue;
      const distance = prefixDistance(word, target, max);
      if (distance < best) best = distance;
      if (best === 1) break;
    }
    if (best > max) return null;
    total += best;
  }
  return total;
}

interface Query {
  readonly raw: string;
  readonly folded: string;
  readonly words: readonly string[];
}

function parseQuery(query: string): Query | null {
  const raw = query.trim().toLowerCase();
  const folded = fold(query);
  if (raw === '' || folded === '') return null;
  return { raw, folded, words: folded.split(' ') };
}

function startsAnyWord(words: readonly string[], start: string): boolean {
  for (const word of words) if (word.startsWith(start)) return true;
  return false;
}

function allWordsIn(words: readonly string[], item: Prepared): boolean {
  for (const word of words) if (!item.all.includes(word) && !item.id.includes(word)) return false;
  return true;
}

function scoreOf(q: Query, entry: PolicyEntry): number | null {
  const item = prepare(entry);
  if (item.id === q.raw) return 0;
  if (item.id.startsWith(q.raw)) return 1;
  if (item.name.startsWith(q.folded)) return 2;
  if (q.words.length === 1 && startsAnyWord(item.nameWords, q.folded)) return 3;
  if (item.id.includes(q.raw)) return 4;
  if (item.name.includes(q.folded)) return 5;
  // Every word somewhere, in any order, in the name, id, instance type or zone: "web 12", "m5 large use1".
  if (allWordsIn(q.words, item)) return 6;
  const typos = typoScore(q.words, item);
  return typos === null ? null : 6 + typos;
}

/** Lower is better; null when the entry does not match at all. */
export function matchScore(query: string, entry: PolicyEntry): number | null {
  const q = parseQuery(query);
  return q === null ? null : scoreOf(q, entry);
}

/**
 * Among equally good matches, the policies people work on come first: active, then ready to
 * buy, then the ones that are over (in the contract's order); a status it does not know, last.
 */
function statusRank(status: string): number {
  const at = (CAPACITY_STATUSES as readonly string[]).indexOf(status);
  return at === -1 ? CAPACITY_STATUSES.length : at;
}

/** Ids like sc_999 before sc_1000 without a locale-aware compare on every pair. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export function rankPolicies<T extends PolicyEntry>(query: string, entries: Iterable<T>, limit: number): T[] {
  const q = parseQuery(query);
  if (q === null || limit <= 0) return [];
  // The best `limit` so far, kept sorted: a short list, so inserting is cheaper than sorting everything.
  const best: { entry: T; score: number }[] = [];
  const worse = (a: { entry: T; score: number }, b: { entry: T; score: number }) =>
    a.score - b.score || statusRank(a.entry.policyStatus) - statusRank(b.entry.policyStatus) || compareIds(a.entry.cidrId, b.entry.cidrId);
  for (const entry of entries) {
    const score = scoreOf(q, entry);
    if (score === null) continue;
    const candidate = { entry, score };
    if (best.length === limit && worse(candidate, best[limit - 1]!) >= 0) continue;
    let at = best.length;
    while (at > 0 && worse(candidate, best[at - 1]!) < 0) at--;
    best.splice(at, 0, candidate);
    if (best.length > limit) best.pop();
  }
  return best.map(({ entry }) => entry);
}

/** A query that is a whole policy id (sc_ and digits), which can be opened even when not indexed. */
export function looksLikePolicyId(query: string): boolean {
  return /^sc_\d+$/i.test(query.trim());
}

/** Labels of the views that contain the query (case-insensitive). */
export function matchesLabel(query: string, label: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || label.toLowerCase().includes(q);
}
