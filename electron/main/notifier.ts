import { Notification } from 'electron';
import type { NotifierPort } from '../services/desktop/policy-notifier.js';

/**
 * OS notifications through Electron. Each one is kept referenced until it is
 * clicked or closed: a collected Notification loses its click handler.
 */
export function electronNotifier(focusApp: () => void, icon?: string): NotifierPort | null {
  if (!Notification.isSupported()) return null;
  const live = new Set<Notification>();
  return {
    show(content, onClick) {
      const notification = new Notification({ title: content.title, body: content.body, ...(icon ? { icon } : {}) });
      live.add(notification);
      notification.on('click', () => {
        live.delete(notification);
        focusApp();
        onClick();
      });
      notification.on('close', () => live.delete(notification));
      notification.show();
    },
  };
}
