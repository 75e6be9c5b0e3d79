import { readFile } from 'node:fs/promises';

/** The marker @electron/fuses looks for in Electron's binary; the fuse wire follows it. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/** Fuse positions in wire version 1 (the order Electron and @electron/fuses use). */
export const FUSE_INDEX = {
  runAsNode: 0,
  enableCookieEncryption: 1,
  enableNodeOptionsEnvironmentVariable: 2,
  enableNodeCliInspectArguments: 3,
  enableEmbeddedAsarIntegrityValidation: 4,
  onlyLoadAppFromAsar: 5,
  loadBrowserProcessSpecificV8Snapshot: 6,
  grantFileProtocolExtraPrivileges: 7,
} as const;
export type FuseName = keyof typeof FUSE_INDEX;
export type Fuses = Record<FuseName, boolean>;

/** What electron-builder.yml must leave in a release binary. */
export const RELEASE_FUSES: Fuses = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  loadBrowserProcessSpecificV8Snapshot: false,
  grantFileProtocolExtraPrivileges: false,
};

/** The test build: the release with the inspector on, for Playwright's _electron. */
export const TEST_BUILD_FUSES: Fuses = { ...RELEASE_FUSES, enableNodeCliInspectArguments: true };

/** Reads the first fuse wire of an Electron binary (universal macOS binaries carry one per slice; both are flipped alike). */
export async function readFuses(binaryPath: string): Promise<Fuses> {
  const binary = await readFile(binaryPath);
  const at = binary.indexOf(FUSE_SENTINEL, 0, 'ascii');
  if (at < 0) throw new Error(`${binaryPath} has no fuse wire`);
  const wire = at + FUSE_SENTINEL.length;
  if (binary[wire] !== 1) throw new Error(`${binaryPath}: unknown fuse wire version ${binary[wire]}`);
  const length = binary[wire + 1] ?? 0;
  const state = (index: number): boolean => {
    if (index >= length) throw new Error(`${binaryPath}: the fuse wire has no fuse ${index}`);
    const byte = binary[wire + 2 + index];
    if (byte === 0x31) return true;
    if (byte === 0x30) return false;
    throw new Error(`${binaryPath}: fuse ${index} is neither on nor off (0x${byte?.toString(16)})`);
  };
  const fuses = {} as Fuses;
  for (const [name, index] of Object.entries(FUSE_INDEX) as Array<[FuseName, number]>) fuses[name] = state(index);
  return fuses;
}
