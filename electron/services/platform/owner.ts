import { createHash } from 'node:crypto';
import { tupleKey } from '../../../shared/format/tuple-key.js';

/** Whose data: one user of one environment (profile). The replica and the own data are both kept per owner. */
export interface Owner {
  readonly profileId: string;
  readonly username: string;
}

export function sameOwner(a: Owner | null, b: Owner | null): boolean {
  return a !== null && b !== null && a.profileId === b.profileId && a.username === b.username;
}

/**
 * The folder name of an owner's data: the same owner always gets the same name, which does not reveal the username.
 * Hashed from "profile \n user", as every folder made so far was: that is one owner per text while the profile id
 * holds no line break (the app's own ids never do; a username may), since the first break ends the profile id.
 * A profile id with a break (a settings file written by hand) would let profile "a\nb" with user "c" share the
 * folder of profile "a" with user "b\nc", so such an owner is hashed from the JSON of the pair instead: text that
 * holds no raw line break, so it never equals the older form either.
 */
export function ownerFolder(owner: Owner): string {
  return owner.profileId.includes('\n') ? folderOf(tupleKey(owner.profileId, owner.username)) : folderOf(`${owner.profileId}\n${owner.username}`);
}

/**
 * The name versions before cust16 gave the folder of an owner whose profile id holds a line break, where its older
 * data still is (`adoptOlderFolder`); null for every other owner, whose folder kept its name. Shared with the owner
 * whose profile id ends at that owner's first break: which of the two a folder there belongs to is told by the key.
 */
export function olderOwnerFolder(owner: Owner): string | null {
  return owner.profileId.includes('\n') ? folderOf(`${owner.profileId}\n${owner.username}`) : null;
}

function folderOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}
