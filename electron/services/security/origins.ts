/** The app's own origin in Electron: pages are served from this scheme only. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'capacity-desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/**
 * The only pages the app may open in the user's browser: the project's own
 * release pages (release notes, downloads). Any other github.com page could be
 * anyone's (an issue, a gist, a look-alike repository), so it is refused.
 * package.json's `repository` names the same project (test/unit/security checks it).
 */
export const PROJECT_REPOSITORY = 'capacity-desk/capacity-desk';
const RELEASES_PATH = `/${PROJECT_REPOSITORY}/releases`;

export function isAppUrl(url: string): boolean {
  try {
    // URL.origin is "null" for custom schemes outside Electron: compare the parts.
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

/** Parses the URL (never string matching) and allows only https to the project's release pages on github.com. */
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
    parsed.hostname === 'github.com' &&
    // Compared case-insensitively as GitHub does, and on whole path segments (…/releases-evil is not a release page).
    (parsed.pathname.toLowerCase() === RELEASES_PATH || parsed.pathname.toLowerCase().startsWith(`${RELEASES_PATH}/`))
  );
}
