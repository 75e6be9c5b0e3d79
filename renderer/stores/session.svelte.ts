import type { AppError } from '../../shared/ipc/result.js';
import type { Profile, SessionStatus, SignInInput } from '../../shared/ipc/models.js';
import { api } from '../lib/api.js';

/** The signed-in state and the profiles, as the main process reports them. */
class SessionStore {
  status = $state<SessionStatus | null>(null);
  profiles = $state<Profile[]>([]);
  loadError = $state<AppError | null>(null);

  readonly signedIn = $derived(this.status?.signedIn === true);

  async load(): Promise<void> {
    const [status, profiles] = await Promise.all([api.session.status(), api.profiles.list()]);
    if (status.ok) this.status = status.value;
    else this.loadError = status.error;
    if (profiles.ok) this.profiles = profiles.value;
    else this.loadError = profiles.error;
  }

  /** Returns the error for the form to show; null on success. */
  async signIn(input: SignInInput): Promise<AppError | null> {
    const result = await api.session.signIn(input);
    if (!result.ok) return result.error;
    this.status = result.value;
    return null;
  }

  async signOut(): Promise<void> {
    const result = await api.session.signOut();
    if (result.ok) this.status = result.value;
  }

  /** Pushed by the main process, e.g. when the service rejects the token. */
  listen(): () => void {
    return api.on('session.changed', (status) => {
      this.status = status;
    });
  }
}

export const session = new SessionStore();
