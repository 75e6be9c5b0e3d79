import type { DriftReport } from './diagnostics.js';

// In a module of its own (re-exported by diagnostics.ts): the diagnostics dialog is part of the page's first code,
// and importing diagnostics.ts for this built its schemas before the overview could mount (issue 25, overview12).

/** The report as text for a support ticket: paths only, no values. */
export function driftReportText(report: DriftReport): string {
  const lines = [`Capacity Desk ${report.appVersion} — contract differences with ${report.service}`];
  if (report.entries.length === 0) lines.push('No differences seen since the app started.');
  for (const entry of report.entries) {
    lines.push('', `${entry.endpoint} (seen ${entry.count}×, first ${entry.firstSeen}, last ${entry.lastSeen})`);
    for (const finding of entry.findings) lines.push(`  - ${finding}`);
  }
  return lines.join('\n');
}
