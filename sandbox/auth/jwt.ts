import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

export interface TokenClaims {
  readonly sub: string;
  /** Seconds since the epoch, on the sandbox clock. */
  readonly iat: number;
  readonly exp: number;
  readonly jti: string;
}

const MAX_CACHED_TOKENS = 1024;
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * HS256 tokens. The secret is made fresh by each process (a restart signs
 * everyone out) unless the sandbox keeps state in a file, which keeps the
 * secret too, so the app's built-in sandbox restores a saved session.
 */
export class JwtSigner {
  private readonly secret: Buffer;
  /** Tokens already checked: a client sends the same one on every call, and HMAC is the costliest step of a request. */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(secret: Buffer = randomBytes(32)) {
    this.secret = secret;
  }

  sign(subject: string, issuedAtSeconds: number, lifetimeSeconds: number): string {
    const claims: TokenClaims = {
      sub: subject,
      iat: issuedAtSeconds,
      exp: issuedAtSeconds + lifetimeSeconds,
      jti: randomUUID(),
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${HEADER}.${payload}.${this.mac(`${HEADER}.${payload}`).toString('base64url')}`;
  }

  /** The claims of a well-formed, correctly signed, unexpired token; otherwise null. */
  verify(token: string, nowSeconds: number): TokenClaims | null {
    const known = this.verified.get(token);
    if (known) return known.exp > nowSeconds ? known : null;
    const claims = this.check(token);
    if (!claims) return null;
    if (this.verified.size >= MAX_CACHED_TOKENS) this.verified.clear();
    this.verified.set(token, claims);
    return claims.exp > nowSeconds ? claims : null;
  }

  private check(token: string): TokenClaims | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [header, payload, signature] = parts as [string, string, string];
    // Only our own header is accepted, which rules out `alg: none` and key confusion.
    if (header !== HEADER) return null;
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(`${header}.${payload}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return parseClaims(payload);
  }

  private mac(input: string): Buffer {
    return createHmac('sha256', this.secret).update(input).digest();
  }
}

function parseClaims(payload: string): TokenClaims | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { sub, iat, exp, jti } = value as Record<string, unknown>;
  if (typeof sub !== 'string' || typeof iat !== 'number' || typeof exp !== 'number' || typeof jti !== 'string') return null;
  return { sub, iat, exp, jti };
}
