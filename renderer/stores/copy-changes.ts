import { api } from '../lib/api.js';
import { capacityList } from './capacity-list.svelte.js';
import { customers } from './customers.svelte.js';
import { overview } from './overview.svelte.js';
import { renewalWorklist } from './renewal-worklist.svelte.js';

/** Changes of the copy in quick succession (a refresh and the next one) are read once, after they settle. */
export const COPY_CHANGED_SETTLE_MS = 150;

/**
 * Calls `readAgain` once the local copy changed under the views (the main
 * process's `offline.copyChanged`, after a refresh committed), debounced.
 * Each store reads its current window again with its filters, selection and
 * place kept. Returns the function that stops following.
 */
export function onCopyChanged(readAgain: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = api.on('offline.copyChanged', () => {
    clearTimeout(timer);
    timer = setTimeout(readAgain, COPY_CHANGED_SETTLE_MS);
  });
  return () => {
    clearTimeout(timer);
    stop();
  };
}

/**
 * The window-wide stores follow the copy: the capacity list (search and sort
 * included), the accounts that name customers, the overview and the renewal
 * worklist each read again what they show, if they show anything yet. The
 * customer page, one store per page, follows on its own (onCopyChanged).
 */
export function followCopyChanges(): () => void {
  return onCopyChanged(() => {
    capacityList.replicaUpdated();
    void customers.replicaUpdated();
    void overview.readAgain();
    void renewalWorklist.readAgain();
  });
}
