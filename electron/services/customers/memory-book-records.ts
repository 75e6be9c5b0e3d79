import type { Customer } from '../../../shared/ipc/customers.js';
import type { BookRecords } from './customer-book.js';

/**
 * Books kept in memory, one per owner: what the app holds until the own-data
 * store answers (electron/services/own-data/); says it is not persistent.
 */
export function memoryBookRecords(): (owner: { profileId: string; username: string } | null) => Promise<BookRecords | null> {
  const books = new Map<string, Map<string, Customer>>();
  return async (owner) => {
    if (!owner) return null;
    const id = `${owner.profileId}\n${owner.username}`;
    let book = books.get(id);
    if (!book) {
      book = new Map();
      books.set(id, book);
    }
    const records = book;
    return {
      persistent: false,
      restoredAt: null,
      list: async () => [...records].map(([key, body]) => ({ id: key, body })),
      put: async (key, body) => void records.set(key, body),
      remove: async (key) => void records.delete(key),
    };
  };
}
