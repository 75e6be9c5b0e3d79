import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * package.json's `engines.node` says which Node runs this project's tools. It
 * must not promise a version a dependency refuses, and must include both the
 * Node the workflows use and the Node of the machines it is developed on.
 * Exceptions, each checked where it matters:
 * - electron: its package downloads the binary only on Node >= 22.12, which the
 *   workflows (that package the app) use; checked below.
 * - @axe-core/playwright declares >= 22.12 but runs the accessibility checks of
 *   the e2e suite on Node 20 (this machine's e2e runs prove it).
 */
const EXCEPTIONS = new Set(['electron', '@axe-core/playwright']);
const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

/** Enough of semver ranges for engines fields: `||` of space-separated `^x.y.z`, `>=x.y.z`, `>= x`, `x.y.z`. */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .every((part) => {
        const match = /^(>=|<=|>|<|\^|~)?v?(\d+)(?:\.(\d+|x))?(?:\.(\d+|x))?$/.exec(part);
        if (!match) throw new Error(`range not understood: ${part}`);
        const [, op = '=', major, minor = '0', patch = '0'] = match;
        const bound = [Number(major), minor === 'x' ? 0 : Number(minor), patch === 'x' ? 0 : Number(patch)] as const;
        const cmp = compare(v, bound);
        if (op === '>=') return cmp >= 0;
        if (op === '>') return cmp > 0;
        if (op === '<') return cmp < 0;
        if (op === '<=') return cmp <= 0;
        if (op === '^') return cmp >= 0 && v[0] === bound[0];
        if (op === '~') return cmp >= 0 && v[0] === bound[0] && v[1] === bound[1];
        // "20.x", "22.1.x": only the parts given must match.
        if (minor === 'x' || patch === 'x' || part.split('.').length < 3) {
          return v[0] === bound[0] && (minor === 'x' || part.split('.').length < 2 || v[1] === bound[1]) && (patch === 'x' || part.split('.').length < 3 || v[2] === bound[2]);
        }
        return cmp === 0;
      }),
  );
}
function parse(version: string): readonly [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = version.replace(/^v/, '').split('.').map(Number);
  return [major, minor, patch];
}
function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** Every minor of every line from 18 to 26, at patch 0 and a high patch. */
const SAMPLES = Array.from({ length: 9 }, (_, i) => 18 + i).flatMap((major) => Array.from({ length: 30 }, (_, minor) => [`${major}.${minor}.0`, `${major}.${minor}.9`]).flat());

function workflowNodeMajors(): number[] {
  const dir = join(root, '.github', 'workflows');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yml'))
    .flatMap((name) => [...readFileSync(join(dir, name), 'utf8').matchAll(/node-version:\s*['"]?(\d+)/g)].map((m) => Number(m[1])));
}

describe('engines.node', () => {
  const ours = pkg.engines.node;
  const direct = { ...pkg.dependencies, ...pkg.devDependencies };

  it('promises no Node version that a dependency refuses', () => {
    for (const name of Object.keys(direct)) {
      if (EXCEPTIONS.has(name)) continue;
      let theirs: string | undefined;
      try {
        theirs = (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node;
      } catch {
        continue;
      }
      if (!theirs) continue;
      const refused = SAMPLES.filter((version) => satisfies(version, ours) && !satisfies(version, theirs));
      expect.soft(refused, `${name} wants node ${theirs}`).toEqual([]);
    }
  });

  it('includes the Node of the workflows (which also installs Electron) and of this machine', () => {
    const majors = workflowNodeMajors();
    expect(majors.length).toBeGreaterThan(0);
    const electron = (JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node ?? '*';
    for (const major of majors) {
      // setup-node takes the newest release of the line.
      expect.soft(satisfies(`${major}.99.0`, ours), `workflows use Node ${major}`).toBe(true);
      expect.soft(satisfies(`${major}.99.0`, electron), `electron needs ${electron}`).toBe(true);
    }
    expect(satisfies(process.version, ours), `this machine runs ${process.version}`).toBe(true);
  });
});
