import { api } from './lib/api.js';
import { askSession } from './lib/session-calls.js';

/**
 * The first screen's calls, made as this module is evaluated (issue 25). main.ts imports it before anything else,
 * and it imports nothing but the api door, so the calls leave before the rest of the app's code (Svelte, the
 * stores, the views, the zod schemas: 60 ms quiet, 100-225 ms at load 23) is evaluated, and the main process
 * answers them meanwhile; asked from main.ts's own body they waited for that evaluation.
 *
 * The overview too, before the status says who is signed in (overview13): asked on the status it left only once
 * the evaluation was over (no code reads an answer before then), a round trip after it, and its answer then came
 * during the mount, so the figures were rendered in a task and a frame of their own. Asked here, its answer is in
 * as the app mounts. The status still decides: signed out, the answer (the main process refuses it) is dropped
 * (overview.askEarly), and the main process does not take such an ask for its first screen (FirstScreen).
 */
export const firstCalls = { ...askSession(), viewState: api.views.state(), overview: api.overview.summary() };
