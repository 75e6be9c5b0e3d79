import type Database from 'better-sqlite3-multiple-ciphers';
import type { Connection } from '../platform/sqlcipher.js';

/**
 * The copy's commit counter: a meta row that every write moves inside its own
 * transaction (main-thread writes and the rewrite thread's alike), so it moves
 * with the rows and only with them. Not SQLite's `data_version`: a truncating
 * checkpoint moves that for the readers too (no row changed), and the checkpoint
 * thread truncates after every full refresh, so whatever was kept between the
 * refresh's commit and that checkpoint's end was made again for nothing.
 */
export const MOVE_COMMIT_VERSION = `INSERT INTO meta (key, value) VALUES ('commits', '1')
  ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT);`;

const READ_COMMIT_VERSION = `SELECT value FROM meta WHERE key = 'commits'`;

/**
 * The capacity list's own commit counter: moved, beside the file's, by the writes that change the list's rows
 * (a refresh of the list, the rewrite thread's transaction, a write-through), and by nothing else. The records a
 * sync writes after the list (the details, the linked accounts, the DR lists) move the file's counter only, so
 * what is derived from the list alone (the Renewals' upcoming policies and answers) outlives them: the Renewals'
 * opening made as the list commits is still the one given when the sync ends (issue 28).
 */
export const MOVE_LIST_VERSION = `INSERT INTO meta (key, value) VALUES ('list_commits', '1')
  ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT);`;

const READ_LIST_VERSION = `SELECT value FROM meta WHERE key = 'list_commits'`;

/**
 * Every write of the list's rows moves both counters: one statement for both, so no write of the list can move the
 * file's and forget the list's (review12: a new refresh path did, and the Renewals kept a policy gone from its window).
 */
export const MOVE_LIST_AND_COMMIT_VERSIONS = `${MOVE_COMMIT_VERSION} ${MOVE_LIST_VERSION}`;

/** The reading statement per connection: asked on every kept answer's check. */
const reads = new WeakMap<Connection, Database.Statement>();

/**
 * Which commits a connection sees, as a key for what was derived from the
 * file: equal versions mean the same rows. Compare it only with versions of
 * the same connection (a copy opened again, or rebuilt, counts afresh).
 */
export function commitVersion(connection: Connection): string {
  let read = reads.get(connection);
  if (!read) reads.set(connection, (read = connection.prepare(READ_COMMIT_VERSION).pluck()));
  // A copy written before the counter existed reads 0 until its first write.
  return String(read.get() ?? '0');
}

/** The reading statement of the list's counter per connection. */
const listReads = new WeakMap<Connection, Database.Statement>();

/**
 * Which commits of the capacity list a connection sees (`MOVE_LIST_VERSION`): equal versions mean the same list
 * rows, whatever records were written meanwhile. Compare only with versions of the same connection.
 */
export function listVersion(connection: Connection): string {
  let read = listReads.get(connection);
  if (!read) listReads.set(connection, (read = connection.prepare(READ_LIST_VERSION).pluck()));
  // A copy written before this counter existed reads 0 until the list's next write.
  return String(read.get() ?? '0');
}

/** A write of the list's rows in one transaction: both counters move (the file's and the list's). */
export function commitMovingListVersion(writer: Connection, write: () => void): void {
  writer.transaction(() => {
    write();
    writer.exec(MOVE_LIST_AND_COMMIT_VERSIONS);
  })();
}

/** One write in one transaction that moves the commit counter: what was derived from the copy before it is made again. */
export function commitMovingVersion(writer: Connection, write: () => void): void {
  writer.transaction(() => {
    write();
    writer.exec(MOVE_COMMIT_VERSION);
  })();
}

/**
 * One write in one transaction that leaves the counter where it was: for a write that changes no row anything
 * kept per version is derived from (the overview's savings tally, kept for the next launch), so the worklist's
 * kept answers and the account names outlive it.
 */
export function commitKeepingVersion(writer: Connection, write: () => void): void {
  writer.transaction(write)();
}
