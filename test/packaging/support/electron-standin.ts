import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FUSE_INDEX, FUSE_SENTINEL } from '../../../scripts/lib/fuses.js';

/** Electron's own defaults ('1' on, '0' off), i.e. what an unflipped binary carries. */
const ELECTRON_DEFAULT_WIRE = '10110001';
if (ELECTRON_DEFAULT_WIRE.length !== Object.keys(FUSE_INDEX).length) throw new Error('the stand-in wire must have every fuse');

/**
 * A stand-in for Electron's distribution folder, so electron-builder can pack
 * `--linux dir` with no download: an "electron" file that carries a real fuse
 * wire at Electron's defaults (electron-builder flips it as it would the real
 * binary, and the check reads it back), and the files the packer copies.
 * It is not an Electron and never runs.
 */
export async function writeElectronStandIn(dir: string, version: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in for the Electron binary (packaging checks only)" >&2\nexit 1\n# '),
    Buffer.from(FUSE_SENTINEL, 'ascii'),
    Buffer.from([1, ELECTRON_DEFAULT_WIRE.length]),
    Buffer.from(ELECTRON_DEFAULT_WIRE, 'ascii'),
    Buffer.from('\n'),
  ]);
  await writeFile(join(dir, 'electron'), binary);
  await chmod(join(dir, 'electron'), 0o755);
  await writeFile(join(dir, 'version'), version);
  await writeFile(join(dir, 'LICENSE'), 'stand-in\n');
}
