import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Hands a launch address to a browser without putting it on a command line:
 * every user of the computer can read command lines (`ps`), but only the owner
 * can read a 0600 file inside a 0700 folder. The browser is started on the
 * file's `file://` address (which names nothing secret), and the page
 * forwards it to the one-time launch address.
 */
export const LAUNCH_FOLDER = 'launch';

export interface LaunchFile {
  /** The address to give the browser: a path, never the code. */
  readonly url: string;
  readonly path: string;
  remove(): Promise<void>;
}

export async function writeLaunchFile(dataDir: string, launchUrl: string): Promise<LaunchFile> {
  const folder = join(dataDir, LAUNCH_FOLDER);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // mkdir's mode is only applied to folders it creates (and is masked by umask).
  await chmod(folder, 0o700);
  const path = join(folder, `open-${randomBytes(8).toString('hex')}.html`);
  await writeFile(path, launchPage(launchUrl), { mode: 0o600, flag: 'wx' });
  return { url: pathToFileURL(path).href, path, remove: () => rm(path, { force: true }) };
}

/** Launch files left by an earlier run that ended before its browser opened them. */
export async function removeStaleLaunchFiles(dataDir: string): Promise<void> {
  const folder = join(dataDir, LAUNCH_FOLDER);
  const names = await readdir(folder).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.startsWith('open-')).map((n) => rm(join(folder, n), { force: true })));
}

function launchPage(launchUrl: string): string {
  const escaped = launchUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${escaped}"><title>Capacity Desk</title></head>
<body><p>Opening Capacity Desk&hellip;</p></body></html>
`;
}
