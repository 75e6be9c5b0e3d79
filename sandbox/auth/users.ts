import { SANDBOX_USERS, findUser, type SandboxUser } from '../accounts.js';
import { hashPassword, verifyPassword } from './passwords.js';

/**
 * The directories made so far, by user list: each list is hashed once per process. Three scrypt hashes (two users and
 * the decoy) were 150 ms of CPU, nearly all of a sandbox's start, paid again by every sandbox a process started (every
 * app a test starts has one; suite14, docs/testing.md). A directory holds nothing but the hashes, so sandboxes share it.
 */
const made = new WeakMap<readonly SandboxUser[], Promise<UserDirectory>>();

/** The seeded users with scrypt hashes of their passwords, made once per process. */
export class UserDirectory {
  private constructor(
    private readonly hashes: ReadonlyMap<string, string>,
    private readonly decoy: string,
  ) {}

  /** The directory of these users: hashed at the first call of the process, the same directory after it. */
  static create(users: readonly SandboxUser[] = SANDBOX_USERS): Promise<UserDirectory> {
    let directory = made.get(users);
    if (!directory) {
      directory = UserDirectory.hash(users);
      made.set(users, directory);
      // A failed hashing is not kept: the next sandbox tries again.
      directory.catch(() => made.delete(users));
    }
    return directory;
  }

  private static async hash(users: readonly SandboxUser[]): Promise<UserDirectory> {
    const entries = await Promise.all(users.map(async (user) => [user.username, await hashPassword(user.password)] as const));
    return new UserDirectory(new Map(entries), await hashPassword('decoy'));
  }

  async authenticate(username: string, password: string): Promise<SandboxUser | null> {
    const user = findUser(username);
    const hash = user ? this.hashes.get(user.username) : undefined;
    // Unknown names still pay for one scrypt, so timing does not reveal which names exist.
    const ok = await verifyPassword(password, hash ?? this.decoy);
    return ok && user && hash ? user : null;
  }
}
