import { describe, expect, it } from 'vitest';
import { secureWebPreferences } from '../../../electron/main/web-preferences.js';

describe('window web preferences', () => {
  it('turn on every isolation the security checklist asks for', () => {
    expect(secureWebPreferences('/app/preload.cjs')).toEqual({
      preload: '/app/preload.cjs',
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
      disableBlinkFeatures: 'Auxclick',
      spellcheck: true,
    });
  });
});
