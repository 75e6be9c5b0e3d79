/** Facts about this copy of the app that decide whether it can update itself. */
export interface UpdateFacts {
  readonly isPackaged: boolean;
  readonly platform: NodeJS.Platform;
  /** resources/app-update.yml: electron-builder writes it only for builds with a publish feed. */
  readonly hasUpdateFeed: boolean;
  /** Linux: set by the AppImage runtime. */
  readonly appImage: boolean;
  /** Linux: resources/package-type, written into deb and rpm packages. */
  readonly linuxPackage: boolean;
  /** CAPACITY_DESK_DISABLE_UPDATES=1: the _electron tests and managed machines. */
  readonly disabledByEnv: boolean;
}

/**
 * Who installs an update. deb and rpm installs belong to the package manager:
 * electron-updater would run pkexec at quit (a root password prompt, or a
 * failure on managed laptops), so the app only says a version is available.
 */
export type UpdateInstaller = 'app' | 'package-manager';

export function updateInstaller(facts: Pick<UpdateFacts, 'platform' | 'appImage' | 'linuxPackage'>): UpdateInstaller {
  return facts.platform === 'linux' && facts.linuxPackage && !facts.appImage ? 'package-manager' : 'app';
}

/** Null when this copy can update itself; otherwise the reason, in words the app shows. */
export function updatesUnavailableReason(facts: UpdateFacts): string | null {
  if (!facts.isPackaged) return 'This copy runs from the source tree; installed copies update themselves.';
  if (facts.disabledByEnv) return 'Updates are turned off for this copy (CAPACITY_DESK_DISABLE_UPDATES).';
  if (!facts.hasUpdateFeed) return 'This build has no update feed (a test or unpublished build).';
  if (facts.platform === 'linux' && !facts.appImage && !facts.linuxPackage) {
    return 'This copy was not installed from the AppImage, deb or rpm package, so it cannot update itself.';
  }
  return null;
}
