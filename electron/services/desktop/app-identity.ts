/**
 * Who the app is to the OS. APP_ID must equal electron-builder.yml's appId
 * (test/packaging checks it): Windows groups notifications and taskbar
 * entries by it, and the installer's shortcuts carry it.
 */
export const APP_ID = 'com.capacitydesk.desktop';
export const APP_NAME = 'Capacity Desk';

/** The main window's size rules (window state is validated against them). */
export const MAIN_WINDOW_LIMITS = { defaultWidth: 1280, defaultHeight: 800, minWidth: 900, minHeight: 600 } as const;
