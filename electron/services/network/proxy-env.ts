/** The proxy settings of the environment, as corporate machines set them. */
export interface ProxyEnv {
  readonly httpProxy: string | undefined;
  readonly httpsProxy: string | undefined;
  readonly noProxy: string | undefined;
}

/** Lower case wins, as curl and undici read them. */
function pick(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return value && value.trim() !== '' ? value.trim() : undefined;
}

/** The proxy variables, or null when none is set (direct connections). */
export function readProxyEnv(env: NodeJS.ProcessEnv = process.env): ProxyEnv | null {
  const httpProxy = pick(env, 'http_proxy');
  const httpsProxy = pick(env, 'https_proxy');
  if (!httpProxy && !httpsProxy) return null;
  return { httpProxy, httpsProxy, noProxy: pick(env, 'no_proxy') };
}

/** A proxy URL fit to show: any user name or password in it is replaced. */
export function redactProxyUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.username || url.password) {
      url.username = '***';
      url.password = '';
    }
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(not a valid URL)';
  }
}
