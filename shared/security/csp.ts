/**
 * The Content-Security-Policy of every page the app shows, in both hosts:
 * scripts and styles only from the app itself, no plugins, no framing, and no
 * network beyond the app's own origin (the renderer makes no network calls;
 * in the browser host 'self' is the loopback host that carries IPC).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The same policy as a <meta> tag in the built index.html, so it holds even
 * where a header is lost (and static scanners can see it). frame-ancestors is
 * ignored in a meta tag, so it stays in the header only.
 */
export const META_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ');

/**
 * The page's policy under `npm run dev` only: Vite's hot-reload socket on
 * loopback, and the styles and scripts Vite injects, marked with the nonce it
 * was started with. Everything else as in CONTENT_SECURITY_POLICY.
 */
export function developmentPolicy(dev: { readonly socketOrigin: string; readonly nonce: string }): string {
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' 'nonce-${dev.nonce}'`)
    .replace("style-src 'self'", `style-src 'self' 'nonce-${dev.nonce}'`)
    .replace("connect-src 'self'", `connect-src 'self' ${dev.socketOrigin}`);
}

/** Headers sent with every page and asset, by either host. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
