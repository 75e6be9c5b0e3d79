import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface PackagedApp {
  /** electron-builder's unpacked folder, e.g. linux-unpacked, win-unpacked, mac-arm64. */
  readonly folder: string;
  /** What to launch. */
  readonly executable: string;
  /** The file that carries the fuse wire (on macOS, the Electron Framework). */
  readonly fuseFile: string;
  /** The folder holding app.asar. */
  readonly resources: string;
}

const PRODUCT = 'Capacity Desk';

/** The unpacked apps electron-builder left in an output folder (release/ or release/test/). */
export function findPackagedApps(outputDir: string): PackagedApp[] {
  if (!existsSync(outputDir)) return [];
  const apps: PackagedApp[] = [];
  for (const folder of readdirSync(outputDir)) {
    const dir = join(outputDir, folder);
    if (/^linux(-[a-z0-9]+)?-unpacked$/.test(folder)) {
      const executable = join(dir, 'capacity-desk');
      if (existsSync(executable)) apps.push({ folder, executable, fuseFile: executable, resources: join(dir, 'resources') });
    } else if (/^win(-[a-z0-9]+)?-unpacked$/.test(folder)) {
      const executable = join(dir, `${PRODUCT}.exe`);
      if (existsSync(executable)) apps.push({ folder, executable, fuseFile: executable, resources: join(dir, 'resources') });
    } else if (/^mac(-[a-z0-9]+)?$/.test(folder)) {
      const bundle = join(dir, `${PRODUCT}.app`, 'Contents');
      const executable = join(bundle, 'MacOS', PRODUCT);
      const fuseFile = join(bundle, 'Frameworks', 'Electron Framework.framework', 'Electron Framework');
      if (existsSync(executable)) apps.push({ folder, executable, fuseFile, resources: join(bundle, 'Resources') });
    }
  }
  return apps;
}
