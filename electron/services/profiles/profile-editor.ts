import type { Profile, ProfileIdInput, RememberCustomerInput } from '../../../shared/ipc/profiles.js';
import { AppFailure } from '../../../shared/ipc/result.js';
import type { SessionService } from '../session/session-service.js';
import type { ProfileDraft, ProfileRegistry } from './profile-registry.js';

/**
 * The profile changes that touch the session: a signed-in profile, or one with
 * a sign-in under way, keeps its URL (its token belongs to that service), and a
 * removed profile leaves no keychain entry behind.
 */
export class ProfileEditor {
  constructor(
    private readonly registry: ProfileRegistry,
    private readonly session: SessionService,
  ) {}

  async save(draft: ProfileDraft): Promise<Profile> {
    const current = draft.id === undefined ? undefined : this.registry.find(draft.id);
    if (current && current.baseUrl !== draft.baseUrl && this.#signedInTo(current.id)) {
      throw new AppFailure({
        kind: 'conflict',
        field: 'baseUrl',
        message: 'You are signed in to this environment. Sign out before changing its URL.',
      });
    }
    if (current && current.baseUrl !== draft.baseUrl && this.session.signInPending(current.id)) {
      throw new AppFailure({
        kind: 'conflict',
        field: 'baseUrl',
        message: 'A sign-in to this environment is under way. Wait until it finishes before changing its URL.',
      });
    }
    return this.registry.save(draft);
  }

  async remove({ profileId }: ProfileIdInput): Promise<Profile[]> {
    const profile = this.registry.find(profileId);
    if (profile && this.#signedInTo(profileId)) {
      throw new AppFailure({ kind: 'conflict', message: 'You are signed in to this environment. Sign out before removing it.' });
    }
    const profiles = await this.registry.remove(profileId);
    if (profile?.lastUsername) await this.session.forgetStoredToken(profileId, profile.lastUsername);
    return profiles;
  }

  rememberCustomer(input: RememberCustomerInput): Promise<Profile> {
    return this.registry.rememberCustomer(input.profileId ?? this.session.status().profileId, input.customerId);
  }

  #signedInTo(profileId: string): boolean {
    const status = this.session.status();
    return status.signedIn && status.profileId === profileId;
  }
}
