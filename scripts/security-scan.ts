import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';

/**
 * Runs Electronegativity over the main-process sources and the built page and
 * fails on any HIGH or MEDIUM finding that is not accepted inline, and on any
 * file it could not parse (a file it cannot read is a file it did not check).
 * Called as a library: its command line exits 0 whatever it finds and keeps
 * parse failures to itself.
 *
 * Accepting a finding: a comment on the flagged line or within the three lines
 * above it, `electronegativity-accept CHECK_NAME: why this is safe`.
 */
const FAILING = new Set(['HIGH', 'MEDIUM']);
const ACCEPT = /electronegativity-accept\s+([A-Z_]+):\s*\S/;
/** Needs the network (Electron's release list), which CI does not have. */
const EXCLUDED_CHECKS = ['availablesecurityfixesglobalcheck'];

/** What the library returns, as far as this gate reads it. */
const ScanResult = z.object({
  issues: z.array(
    z.object({
      id: z.string(),
      file: z.string(),
      location: z.object({ line: z.number(), column: z.number() }),
      severity: z.object({ name: z.string() }),
      confidence: z.object({ name: z.string() }),
      sample: z.string().optional(),
    }),
  ),
  errors: z.array(z.object({ file: z.string(), message: z.string(), tolerable: z.boolean() })),
});

const { values: args } = parseArgs({
  options: { sources: { type: 'string', default: 'electron' }, page: { type: 'string', default: 'dist/renderer/index.html' } },
});
const sources = args.sources as string;
const electronVersion = (JSON.parse(await readFile('node_modules/electron/package.json', 'utf8')) as { version: string }).version;
const electronegativity: unknown = createRequire(import.meta.url)('@doyensec/electronegativity');
if (typeof electronegativity !== 'function') throw new Error('@doyensec/electronegativity no longer exports its runner');

const work = await mkdtemp(join(tmpdir(), 'cd-eneg-'));
try {
  // Scan the sources where they are (paths in the result are relative to the scan root) plus the built page with its CSP.
  await cp(sources, join(work, sources), { recursive: true });
  await cp(args.page as string, join(work, 'renderer', 'index.html'));
  const result = ScanResult.parse(
    await electronegativity({
      input: work,
      isRelative: true,
      electronVersionOverride: electronVersion,
      customScan: [],
      excludeFromScan: EXCLUDED_CHECKS,
      parserPlugins: [],
    }),
  );
  const failures: string[] = [];
  for (const error of result.errors) {
    if (!error.tolerable) failures.push(`NOT SCANNED ${error.file}: ${error.message}`);
  }
  let accepted = 0;
  for (const issue of result.issues) {
    if (!FAILING.has(issue.severity.name)) continue;
    const file = issue.file;
    if (file !== 'N/A' && (await isAccepted(file, issue.location.line, issue.id))) {
      accepted += 1;
      continue;
    }
    const where = `${file}:${issue.location.line}:${issue.location.column}`;
    failures.push(`${issue.severity.name} ${issue.id} (${issue.confidence.name}) at ${where}  ${issue.sample ?? ''}`);
  }
  console.log(`electronegativity ${electronVersion}: ${result.issues.length} findings, ${accepted} accepted inline, ${failures.length} failing`);
  for (const failure of failures) console.log(`  ${failure}`);
  process.exitCode = failures.length > 0 ? 1 : 0;
} finally {
  await rm(work, { recursive: true, force: true });
}

async function isAccepted(file: string, line: number, check: string): Promise<boolean> {
  const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n');
  for (let i = Math.max(0, line - 4); i < line && i < lines.length; i += 1) {
    const match = ACCEPT.exec(lines[i] ?? '');
    if (match?.[1] === check) return true;
  }
  return false;
}
