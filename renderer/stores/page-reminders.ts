import type { ReminderDigest } from '../../shared/ipc/reminders.js';
import { api } from '../lib/api.js';
import { navigation } from './navigation.svelte.js';

/** How often the page asks for reminders due, and how soon after it opens. */
export const PAGE_REMINDER_INTERVAL_MS = 10 * 60_000;
const FIRST_ASK_MS = 15_000;

/**
 * In the browser host the main process cannot reach the desktop, so the page
 * shows the renewal digest with the browser's own notifications (once the
 * person allowed them, from Preferences). The main process gives each digest
 * once, whichever window asks. The desktop app shows it from the main process
 * instead, so there the page never asks.
 */
export function startPageReminders(): () => void {
  let stopped = false;
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  void api.app.info().then((info) => {
    if (stopped || !info.ok || info.value.host !== 'browser' || typeof Notification === 'undefined') return;
    const ask = () => void askOnce();
    timers.push(setTimeout(ask, FIRST_ASK_MS), setInterval(ask, PAGE_REMINDER_INTERVAL_MS));
  });
  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
  };
}

async function askOnce(): Promise<void> {
  if (Notification.permission !== 'granted') return;
  const result = await api.reminders.take();
  if (result.ok && result.value) show(result.value);
}

function show(digest: ReminderDigest): void {
  const notification = new Notification(digest.title, { body: digest.body, tag: 'capacity-desk-renewals' });
  notification.onclick = () => {
    window.focus();
    navigation.go({ view: 'renewals' });
    notification.close();
  };
}

/** Asked from a click in Preferences (browsers allow the question only then). */
export async function allowPageNotifications(): Promise<NotificationPermission | null> {
  if (typeof Notification === 'undefined') return null;
  return Notification.permission === 'default' ? Notification.requestPermission() : Notification.permission;
}
