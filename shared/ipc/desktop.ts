import { z } from 'zod';
import { MAIN_VIEW_IDS } from '../navigation/main-views.js';

/**
 * Shapes of the desktop integration: app facts, auto-update state,
 * preferences, and commands the application menu or a notification sends to
 * the renderer.
 */

/** A desktop feature this host has, or in plain words why not. */
export const HostFeature = z.object({
  available: z.boolean(),
  reason: z.string().optional(),
});
export type HostFeature = z.infer<typeof HostFeature>;

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** electron: the desktop app; browser: the loopback browser host. */
  host: z.enum(['electron', 'browser']),
  platform: z.string(),
  /** Runtime versions worth quoting in a support request (electron, chrome, node). */
  versions: z.record(z.string(), z.string()),
  updates: HostFeature,
  notifications: HostFeature,
  /** Chromium's sandbox in this run: off when started with --no-sandbox (the AppImage on Ubuntu 24.04+), and why. */
  sandbox: HostFeature,
});
export type AppInfo = z.infer<typeof AppInfo>;

const Instant = z.iso.datetime({ offset: true });

/**
 * Where automatic updating stands. unavailable: this host or build cannot
 * update itself (browser host, a copy run from the source tree, a test build);
 * off: the person turned automatic updates off (a manual check still works).
 */
export const UpdateState = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('unavailable'), reason: z.string() }),
  z.object({ phase: z.literal('off') }),
  z.object({ phase: z.literal('idle') }),
  z.object({ phase: z.literal('checking') }),
  z.object({ phase: z.literal('up-to-date'), checkedAt: Instant }),
  z.object({ phase: z.literal('downloading'), version: z.string(), percent: z.number().min(0).max(100) }),
  z.object({ phase: z.literal('ready'), version: z.string() }),
  /** A deb/rpm install: a newer version exists, and the package manager installs it (never the app, at quit, as root). */
  z.object({ phase: z.literal('package-update'), version: z.string() }),
  z.object({ phase: z.literal('error'), message: z.string(), at: Instant }),
]);
export type UpdateState = z.infer<typeof UpdateState>;

/** How often the offline copy refreshes itself in the background, in minutes; 0 is off. */
export const OFFLINE_REFRESH_CHOICES = [0, 30, 60, 240] as const;
export const OfflineRefreshMinutes = z.literal(OFFLINE_REFRESH_CHOICES);
export type OfflineRefreshMinutes = z.infer<typeof OfflineRefreshMinutes>;

/**
 * Renewal reminders: days before a policy's launch or end at which one digest
 * reminds of it (e.g. 60, 30, 7, 1); none is off.
 */
export const ReminderLeadDays = z
  .array(z.number().int({ error: 'Days are whole days' }).min(1, { error: 'At least 1 day' }).max(365, { error: 'At most 365 days' }))
  .max(8, { error: 'At most 8 lead times' })
  .transform((days) => [...new Set(days)].sort((a, b) => b - a));
export type ReminderLeadDays = z.output<typeof ReminderLeadDays>;

export const Preferences = z.object({
  /** Check for, download and install updates without asking. */
  autoUpdate: z.boolean(),
  /** OS notifications when a capacity policy launches or ends soon. Opt-in. */
  notifyPolicyDates: z.boolean(),
  /** Background refresh of the offline copy while signed in. Opt-in. */
  offlineRefreshMinutes: OfflineRefreshMinutes,
  reminderLeadDays: ReminderLeadDays,
});
export type Preferences = z.infer<typeof Preferences>;

export const PreferencesPatch = z
  .strictObject({
    autoUpdate: z.boolean().optional(),
    notifyPolicyDates: z.boolean().optional(),
    offlineRefreshMinutes: OfflineRefreshMinutes.optional(),
    reminderLeadDays: ReminderLeadDays.optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: 'Change at least one preference' });
export type PreferencesPatch = z.infer<typeof PreferencesPatch>;


/**
 * Something the main process asks the renderer to do: the application menu's
 * entries (the renderer owns navigation and its dialogs) and a click on a
 * policy notification.
 */
export const AppCommand = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('go'), view: z.literal(MAIN_VIEW_IDS) }),
  z.object({ kind: z.literal('back') }),
  z.object({ kind: z.literal('command-palette') }),
  z.object({ kind: z.literal('preferences') }),
  // Help › Contract diagnostics.
  z.object({ kind: z.literal('diagnostics') }),
  z.object({ kind: z.literal('open-policy'), cidrId: z.string().min(1).max(64) }),
]);
export type AppCommand = z.infer<typeof AppCommand>;
