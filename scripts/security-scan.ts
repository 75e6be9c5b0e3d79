import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';

/**
 * Runs Electronegativity over the main-process sources and the built page and
 * fails on any HIGH or MEDIUM finding that is not accepted inline. (The tool
 * itself exits 0 whatever it finds, so its CSV is read here.)
 *
 * Accepting a finding: a comment on the flagged line or within the three lines
 * above it, `electronegativity-accept CHECK_NAME: why this is safe`.
 */
const run = promisify(execFile);
const FAILING = new Set(['HIGH', 'MEDIUM']);
const ACCEPT = /electronegativity-accept\s+([A-Z_]+):\s*\S/;

const { values: args } = parseArgs({
  options: { sources: { type: 'string', default: 'electron' }, page: { type: 'string', default: 'dist/renderer/index.html' } },
});
const sources = args.sources as string;
const electronVersion = (JSON.parse(await readFile('node_modules/electron/package.json', 'utf8')) as { version: string }).version;
const work = await mkdtemp(join(tmpdir(), 'cd-eneg-'));
try {
  // Scan the sources where they are (paths in the report are relative to the scan root) plus the built page with its CSP.
  await cp(sources, join(work, sources), { recursive: true });
  await cp(args.page as string, join(work, 'renderer', 'index.html'));
  const report = join(work, 'report.csv');
  await run(
    'npx',
    ['electronegativity', '-i', work, '-e', electronVersion, '-r', '-x', 'AvailableSecurityFixesGlobalCheck', '-o', report],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const rows = parseCsv(await readFile(report, 'utf8')).slice(1);
  const failures: string[] = [];
  let accepted = 0;
  for (const [check, severity, confidence, file, location, sample] of rows as string[][]) {
    if (!check || !FAILING.has(severity ?? '')) continue;
    const line = Number((location ?? '0:0').split(':')[0]);
    if (file && file !== 'N/A' && (await isAccepted(file, line, check))) {
      accepted += 1;
      continue;
    }
    failures.push(`${severity} ${check} (${confidence}) at ${file}:${location}  ${sample ?? ''}`);
  }
  console.log(`electronegativity ${electronVersion}: ${rows.length} findings, ${accepted} accepted inline, ${failures.length} failing`);
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

/** RFC 4180-style CSV: quoted fields may hold commas and doubled quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field.trim());
      field = '';
    } else if (c === '\n') {
      row.push(field.trim());
      rows.push(row);
      row = [];
      field = '';
    } else if (c !== '\r') field += c;
  }
  if (field || row.length) rows.push([...row, field.trim()]);
  return rows;
}
