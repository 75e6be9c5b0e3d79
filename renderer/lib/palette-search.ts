/** Ranking for the command palette: policies by id or name, best match first. */

export interface PolicyEntry {
  readonly cidrId: string;
  readonly policyName: string;
  readonly policyStatus: string;
}

/** Lower is better; null when the entry does not match at all. */
export function matchScore(query: string, entry: PolicyEntry): number | null {
  const q = query.trim().toLowerCase();
  if (q === '') return null;
  const id = entry.cidrId.toLowerCase();
  const name = entry.policyName.toLowerCase();
  if (id === q) return 0;
  if (id.startsWith(q)) return 1;
  if (name.startsWith(q)) return 2;
  if (name.split(/\s+/).some((word) => word.startsWith(q))) return 3;
  if (id.includes(q)) return 4;
  if (name.includes(q)) return 5;
  // Every word of the query somewhere in the name: "web 12" finds "Web tier us-east-1 12".
  const words = q.split(/\s+/).filter(Boolean);
  if (words.length > 1 && words.every((word) => name.includes(word) || id.includes(word))) return 6;
  return null;
}

export function rankPolicies<T extends PolicyEntry>(query: string, entries: Iterable<T>, limit: number): T[] {
  const scored: { entry: T; score: number }[] = [];
  for (const entry of entries) {
    const score = matchScore(query, entry);
    if (score !== null) scored.push({ entry, score });
  }
  scored.sort((a, b) => a.score - b.score || a.entry.cidrId.localeCompare(b.entry.cidrId, undefined, { numeric: true }));
  return scored.slice(0, limit).map(({ entry }) => entry);
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
