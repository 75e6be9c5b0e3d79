import { isAppUrl } from './origins.js';

/**
 * The only web permission the app's pages get: writing plain text to the
 * clipboard (the "Copy" buttons on ids). Everything else (camera, location,
 * notifications from the page, reading the clipboard...) is refused, and no
 * permission is granted to any origin but the app's own.
 */
const GRANTED: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function isPermissionGranted(permission: string, requestingUrl: string): boolean {
  return GRANTED.has(permission) && isAppUrl(requestingUrl);
}
