import type { Channel } from '../../../shared/ipc/channels.js';
import type { Handlers } from '../../../shared/ipc/contract.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { DemoAccount } from '../built-in/built-in-service.js';
import type { ProfileEditor } from '../profiles/profile-editor.js';
import { SANDBOX_PROFILE_ID, type ProfileRegistry } from '../profiles/profile-registry.js';
import type { SessionService } from '../session/session-service.js';

type SessionChannel = Extract<Channel, `session.${string}` | `profiles.${string}`>;

export interface SessionHandlerDeps {
  readonly session: SessionService;
  readonly profiles: ProfileRegistry;
  readonly profileEditor: ProfileEditor;
  /** The built-in sandbox's demo accounts (their passwords never cross to the window). */
  readonly demoAccounts: readonly DemoAccount[];
}

/** Signing in and out (the demo accounts of the built-in sandbox too), and the environments (profiles). */
export function createSessionHandlers({ session, profiles, profileEditor, demoAccounts }: SessionHandlerDeps): Pick<Handlers, SessionChannel> {
  return {
    'profiles.list': async () => profiles.list(),
    'profiles.save': (input) => profileEditor.save(input),
    'profiles.remove': (input) => profileEditor.remove(input),
    'profiles.rememberCustomer': (input) => profileEditor.rememberCustomer(input),
    'session.status': async () => session.status(),
    'session.signIn': (input) => session.signIn(input),
    'session.signOut': () => session.signOut(),
    'session.demoAccounts': async () => demoAccounts.map(({ username, displayName }) => ({ username, displayName })),
    'session.signInDemo': async ({ username }) => {
      const account = demoAccounts.find((candidate) => candidate.username === username);
      if (!account) throw new AppFailure({ kind: 'not-found', message: 'There is no such demo account in the built-in sandbox.' });
      return session.signIn({ profileId: SANDBOX_PROFILE_ID, username: account.username, password: account.password });
    },
  };
}
