import type { Handlers } from '../../../shared/ipc/contract.js';
import type { DesktopServices } from './desktop-services.js';

type DesktopChannel = 'app.info' | 'updates.status' | 'updates.check' | 'updates.install' | 'preferences.get' | 'preferences.set';

/** The desktop channels of the IPC contract (the same in both hosts; the host decides what is available). */
export function createDesktopHandlers(desktop: DesktopServices): Pick<Handlers, DesktopChannel> {
  return {
    'app.info': async () => desktop.appInfo(),
    'updates.status': async () => desktop.updates.status(),
    'updates.check': () => desktop.updates.check(),
    'updates.install': async () => desktop.updates.install(),
    'preferences.get': async () => desktop.preferences.current,
    'preferences.set': (patch) => desktop.preferences.update(patch),
  };
}
