/**
 * Removes secrets from anything about to be logged: values registered at run
 * time (the live token, a password being used) and anything shaped like one
 * (bearer headers, JWTs, password or token fields), wherever it appears.
 */
const SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]'],
  [/eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, '[redacted-jwt]'],
  [/("?(?:password|passwd|access_token|accessToken|token|secret|key)"?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,}&]+)/gi, '$1"[redacted]"'],
  [/([?&](?:key|token|password)=)[^&\s]+/gi, '$1[redacted]'],
];

export class Redactor {
  readonly #secrets = new Set<string>();
  /** Values registered for a while (a password during its sign-in), counted: two sign-ins may use the same one. */
  readonly #held = new Map<string, number>();

  /** Registers a value that must never appear in a log line (ignored when too short to be a secret). */
  add(secret: string): void {
    if (secret.length >= 6) this.#secrets.add(secret);
  }

  remove(secret: string): void {
    this.#secrets.delete(secret);
  }

  /** Registers a value for as long as it is in use; call the returned function when done. Any length counts. */
  hold(secret: string): () => void {
    if (secret === '') return () => undefined;
    this.#held.set(secret, (this.#held.get(secret) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#held.get(secret) ?? 1) - 1;
      if (left > 0) this.#held.set(secret, left);
      else this.#held.delete(secret);
    };
  }

  redact(text: string): string {
    let out = text;
    for (const secret of [...this.#secrets, ...this.#held.keys()]) out = out.split(secret).join('[redacted]');
    for (const [pattern, replacement] of SHAPES) out = out.replace(pattern, replacement);
    return out;
  }
}
