import { api } from './lib/api.js';
import { askSession } from './lib/session-calls.js';
import { scopeOf } from './lib/session-scope.js';

/**
 * The first screen's calls, made as this module is evaluated (issue 25). It is a script of its own, ahead of the
 * app's code (vite.config.ts: the `first-calls` chunk and its module script), and imports nothing but the api door
 * and the session's scope, so the calls leave while the rest of the app's code (Svelte, the stores, the views:
 * 280 KB) is still being fetched and evaluated, and the main process answers them meanwhile.
 *
 * The overview is asked on the status alone, as soon as it says someone is signed in (branch overview17): asked
 * from the app's code, it waited for that code's evaluation to read the status, and its answer came after the mount,
 * so the view painted a skeleton first and the figures a frame later. Signed out, nothing is asked (the main
 * process's first screen is then the one after the sign-in).
 */
const session = askSession();
export const firstCalls = {
  ...session,
  viewState: api.views.state(),
  overview: session.status.then(
    (answer) => (answer.ok && scopeOf(answer.value) !== null ? api.overview.summary() : null),
    () => null,
  ),
};
