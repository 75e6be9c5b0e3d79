import { api } from './lib/api.js';
import { askSession } from './lib/session-calls.js';

/**
 * The first screen's calls, made as this module is evaluated (issue 25). main.ts imports it before anything else,
 * and it imports nothing but the api door, so the calls leave before the rest of the app's code (Svelte, the
 * stores, the views, the zod schemas: 60 ms quiet, 100-225 ms at load 23) is evaluated, and the main process
 * answers them meanwhile; asked from main.ts's own body they waited for that evaluation. The overview is asked on
 * the status (main.ts), once the evaluation is over: no answer can be read before then anyway.
 */
export const firstCalls = { ...askSession(), viewState: api.views.state() };
