import type { DeskApi } from '../../shared/ipc/api-shape.js';

declare global {
  interface Window {
    /** Exposed by the Electron preload or the browser host's shim; nothing else. */
    readonly api: DeskApi;
  }
}

/** The renderer's one door to the main process. */
export const api: DeskApi = window.api;
