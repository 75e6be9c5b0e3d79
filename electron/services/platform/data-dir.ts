import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_FOLDER_NAME = 'Capacity Desk';

/**
 * The app's data folder, the same one Electron's `userData` names, so both
 * hosts share settings. CAPACITY_DESK_DATA_DIR overrides it (tests, portable use).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.CAPACITY_DESK_DATA_DIR) return env.CAPACITY_DESK_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_FOLDER_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER_NAME);
}
