import { api } from './api.js';

/** The calls the session store is set from: asked together, so the sign-in view has its profiles as it mounts. */
export function askSession() {
  return { status: api.session.status(), profiles: api.profiles.list(), demoAccounts: api.session.demoAccounts() };
}

export type SessionCalls = ReturnType<typeof askSession>;
