/** The app's own origin in Electron: pages are served from this scheme only. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'capacity-desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/** https hosts the app may open in the user's browser; everything else is refused. */
export const EXTERNAL_HOST_ALLOWLIST: readonly string[] = ['github.com', 'www.electronjs.org'];

export function isAppUrl(url: string): boolean {
  try {
    // URL.origin is "null" for custom schemes outside Electron: compare the parts.
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

/** Parses the URL (never string matching) and allows only https to an allowlisted host. */
export function isAllowedExternalUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === 'https:' &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.port === '' &&
    EXTERNAL_HOST_ALLOWLIST.includes(parsed.hostname)
  );
}
