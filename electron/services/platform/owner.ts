import { createHash } from 'node:crypto';

/** Whose data: one user of one environment (profile). The replica and the own data are both kept per owner. */
export interface Owner {
  readonly profileId: string;
  readonly username: string;
}

export function sameOwner(a: Owner | null, b: Owner | null): boolean {
  return a !== null && b !== null && a.profileId === b.profileId && a.username === b.username;
}

/** The folder name of an owner's data: the same owner always gets the same name, which does not reveal the username. */
export function ownerFolder(owner: Owner): string {
  return createHash('sha256').update(`${owner.profileId}\n${owner.username}`).digest('hex').slice(0, 24);
}
