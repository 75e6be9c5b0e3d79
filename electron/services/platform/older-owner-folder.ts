import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { olderOwnerFolder, ownerFolder, type Owner } from './owner.js';

/**
 * Brings an owner's data kept under the folder name of the versions before cust16 to the owner's folder, for the one
 * owner whose folder was renamed: a profile id holding a line break (a settings file written by hand). Without it
 * that owner's copy and own data (customers, notes, quotes) were on disk and no longer found.
 *
 * The older name was shared by two owners (profile "a\nb" with user "c", profile "a" with user "b\nc"), so the folder
 * is taken only when this owner's own key reads its file (`readsWithKey`): each owner's key is its own keychain entry
 * (profile id and user), so the other owner's file does not read and stays where it is, the other owner's still.
 * Nothing is taken when the owner's folder exists already (its data is there) or when the key is not known (a key
 * made afresh reads no file of before). Call before the folder is opened or made.
 */
export async function adoptOlderFolder(root: string, owner: Owner, readsWithKey: (dir: string) => boolean): Promise<boolean> {
  const older = olderOwnerFolder(owner);
  if (older === null) return false;
  const from = join(root, older);
  const to = join(root, ownerFolder(owner));
  if (existsSync(to) || !existsSync(from) || !readsWithKey(from)) return false;
  await rename(from, to);
  return true;
}
