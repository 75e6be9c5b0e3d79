import type { SandboxUser } from './accounts.js';
import type { JwtSigner } from './auth/jwt.js';
import type { UserDirectory } from './auth/users.js';
import type { BufferPool } from './http/buffer-pool.js';
import type { Reply } from './http/reply.js';
import type { SandboxClock } from './state/clock.js';
import type { SandboxStore } from './state/store.js';

/** One request as a handler sees it. */
export interface RequestContext {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: Buffer;
  /** The sandbox clock when the request arrived. */
  readonly nowMs: number;
  /** The signed-in user; endpoints without auth get null. */
  readonly user: SandboxUser | null;
}

/** What handlers work with. `store` is replaced by a reset, so read it per request. */
export interface SandboxServices {
  store: SandboxStore;
  readonly clock: SandboxClock;
  readonly users: UserDirectory;
  readonly jwt: JwtSigner;
  /** Output buffers for large bodies. */
  readonly buffers: BufferPool;
  /** Resolves once the latest change is on disk (at once without a data file). */
  persist(): Promise<void>;
}

export type Handler = (req: RequestContext, services: SandboxServices) => Reply | Promise<Reply>;

/** The signed-in user of an endpoint that requires one. */
export function requireUser(req: RequestContext): SandboxUser {
  if (!req.user) throw new Error('handler of an authenticated endpoint called without a user');
  return req.user;
}
