import type { CapacityRow } from '../../../shared/api/readers.js';
import type { SkippedItem } from '../../../shared/api/tolerant.js';
import { readAnswerText, type AnswerRead } from '../api-client/answer-reading.js';
import type { UnreadAnswer } from '../api-client/api-client.js';
import { contentHash, storedBody } from './refresh-diff.js';

/**
 * A listed policy compared with the copy: its id and its record's hash, and the row itself only when the record
 * differs from the stored one (or is new). A tuple, not an object: a page of them crosses from the list-page
 * thread to the main thread as little as it can be.
 */
export type ComparedRow = readonly [cidrId: string, hash: string] | readonly [cidrId: string, hash: string, row: CapacityRow];

/** A capacity list page read and compared with the copy: as the view's page (ReadOf<'listCapacities'>), its rows compared. */
export interface ComparedPage {
  readonly data: ComparedRow[];
  readonly page: number;
  readonly pageSize: number;
  readonly total: number;
  readonly skipped: SkippedItem[];
}

/** `stored`: each stored id's record hash as the copy held it when the refresh began (null: written before hashes were kept). */
export type StoredHashes = ReadonlyMap<string, string | null>;

/**
 * A capacity list page's success answer read as ApiClient.read reads it (readAnswerText: the same parse, drift and
 * tolerant read, the same error), then each row compared with the copy as ListedAgainstStored.add compares it
 * (the hash of its stored record). What the list-page thread runs for each page (list-page-thread-main.ts).
 */
export function readComparedPage(answer: UnreadAnswer, stored: StoredHashes): AnswerRead<ComparedPage> {
  const read = readAnswerText('listCapacities', answer.status, new TextDecoder().decode(answer.body), answer.context, answer.withDrift);
  if ('failure' in read) return read;
  const data = read.value.data.map((row): ComparedRow => {
    const hash = contentHash(storedBody(row));
    return stored.get(row.cidrId) === hash ? [row.cidrId, hash] : [row.cidrId, hash, row];
  });
  return { value: { ...read.value, data }, drift: read.drift };
}
