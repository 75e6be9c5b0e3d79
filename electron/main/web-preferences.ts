import type { WebPreferences } from 'electron';

/** The hardened preferences of every window (asserted by the _electron tests). */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    // Middle-click would otherwise open links as new windows, around setWindowOpenHandler.
    disableBlinkFeatures: 'Auxclick',
    spellcheck: true,
  };
}
