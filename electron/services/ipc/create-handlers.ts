import type { ProfileRegistry } from '../profiles/profile-registry.js';
import type { SessionService } from '../session/session-service.js';
import type { Handlers } from './handlers.js';

export interface HandlerDeps {
  readonly profiles: ProfileRegistry;
  readonly session: SessionService;
}

export function createHandlers({ profiles, session }: HandlerDeps): Handlers {
  return {
    'profiles.list': async () => profiles.list(),
    'session.status': async () => session.status(),
    'session.signIn': (input) => session.signIn(input),
    'session.signOut': () => session.signOut(),
    'accounts.list': () => session.authorized((client, token) => client.call('linkedAccounts', { token })),
  };
}
