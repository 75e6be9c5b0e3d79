import { SANDBOX_USERS, findUser, type SandboxUser } from '../accounts.js';
import { hashPassword, verifyPassword } from './passwords.js';

/** The seeded users with scrypt hashes of their passwords, made once per process. */
export class UserDirectory {
  private constructor(
    private readonly hashes: ReadonlyMap<string, string>,
    private readonly decoy: string,
  ) {}

  static async create(users: readonly SandboxUser[] = SANDBOX_USERS): Promise<UserDirectory> {
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
