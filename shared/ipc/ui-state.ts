import { z } from 'zod';

/**
 * Small, non-secret view state (a list's filter, sort and place) kept by the
 * main process, so it survives a restart of either host: the browser host
 * serves each run from a new origin, whose storage starts empty.
 */
export const UI_STATE_MAX_KEYS = 50;
export const UiStateKey = z.string().regex(/^[a-z][a-z0-9.-]{0,79}$/, { error: 'A view-state key is a short lower-case name.' });
/** Any JSON small enough to be view state; each view parses its own with its schema. */
export const UiStateValue = z.json().refine((value) => JSON.stringify(value).length <= 4_096, { error: 'View state is at most 4 KB.' });
export const UiState = z.record(UiStateKey, UiStateValue);
export type UiState = z.infer<typeof UiState>;
export const UiStateEntry = z.object({ key: UiStateKey, value: UiStateValue });
export type UiStateEntry = z.infer<typeof UiStateEntry>;
