import { z } from 'zod';
import { AgreementTerms } from '../money/agreement-terms.js';
import { CustomerId } from './policy-refs.js';

/** The environments (profiles): what the window sees of each, the base-URL rule, and the editor's inputs. */

export const Profile = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  baseUrl: z.string(),
  builtIn: z.boolean(),
  lastUsername: z.string().optional(),
  /** Customer ids last used with this profile, most recent first (at most MAX_REMEMBERED_CUSTOMERS). */
  lastCustomerIds: z.array(z.string()),
  /** Why this environment cannot be signed in to (its URL breaks the base-URL rule, e.g. a settings file written by hand). */
  unusable: z.string().optional(),
  /** The agreement's currency and cancellation-fee schedule (the Sandbox's are its own, fixed). */
  terms: AgreementTerms,
});
export type Profile = z.infer<typeof Profile>;

/** How many customer ids each profile remembers. */
export const MAX_REMEMBERED_CUSTOMERS = 8;

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** True for a URL that never leaves this computer, where plain http is acceptable. */
export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOSTS.test(url.hostname);
}

/** Link-local addresses: cloud metadata services (169.254.169.254) live there, never this API. */
const LINK_LOCAL_HOSTS = /^(169\.254(?:\.\d{1,3}){2}|\[fe[89ab][0-9a-f]:[0-9a-f:.]*\])$/i;

/**
 * The one rule for a profile's base URL, wherever the URL comes from (the
 * environment editor, a settings file written by hand or copied from a
 * colleague): http(s) only, https required unless the host is this computer (a
 * password or token sent over plain http to another host could be read on the
 * way), no link-local host, no credentials, query or fragment. Returns why the
 * URL cannot be used, or null.
 */
export function baseUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'Enter a full URL, e.g. https://api.example.com';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https://';
  if (url.protocol === 'http:' && !isLoopbackUrl(url)) return 'Use https:// for a service on another computer (plain http is only for localhost)';
  if (LINK_LOCAL_HOSTS.test(url.hostname)) return 'A link-local address (such as a cloud metadata service) is not a Capacity Desk service';
  if (url.username || url.password) return 'Do not put a username or password in the URL';
  if (url.search || url.hash) return 'The base URL takes no ?query or #fragment';
  return null;
}

/** A profile's base URL as the environment editor takes it: the rule of `baseUrlProblem`. */
export const ProfileBaseUrl = z
  .string()
  .trim()
  .min(1, { error: 'Enter the base URL of the service' })
  .superRefine((text, ctx) => {
    const problem = baseUrlProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => text.replace(/\/+$/, ''));

/** A profile as the profile manager saves it: no id creates one. */
export const ProfileInput = z.object({
  id: z.string().min(1).max(64).optional(),
  name: z.string().trim().min(1, { error: 'Enter a name' }).max(60, { error: 'A name is at most 60 characters' }),
  baseUrl: ProfileBaseUrl,
  /** Absent: the terms stay as they are (a new environment's are unknown). */
  terms: AgreementTerms.optional(),
});
export type ProfileInput = z.input<typeof ProfileInput>;

export const ProfileIdInput = z.object({ profileId: z.string().min(1) });
export type ProfileIdInput = z.infer<typeof ProfileIdInput>;

/** Remembers a customer id for a profile (default: the profile of the current session). */
export const RememberCustomerInput = z.object({
  customerId: CustomerId,
  profileId: z.string().min(1).optional(),
});
export type RememberCustomerInput = z.input<typeof RememberCustomerInput>;
