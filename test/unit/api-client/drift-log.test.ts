import { describe, expect, it } from 'vitest';
import { DriftLog } from '../../../electron/services/diagnostics/drift-log.js';
import { driftReportText } from '../../../shared/ipc/diagnostics.js';

function logWith(now = () => new Date('2026-05-01T10:00:00Z')) {
  const lines: { message: string; detail: { endpoint: string; findings: readonly string[] } }[] = [];
  const log = new DriftLog({ log: (message, detail) => lines.push({ message, detail }), now, limit: 3 });
  return { log, lines };
}

describe('DriftLog', () => {
  it('logs a difference once per endpoint and shape, and counts the repeats', () => {
    const { log, lines } = logWith();
    log.record('listCapacities', ['missing data[].policyName']);
    log.record('listCapacities', ['missing data[].policyName']);
    log.record('listCapacities', ['missing data[].policyName', 'unknown field data[].x']);
    log.record('describeCapacity', ['missing data[].policyName']);
    expect(lines.map((line) => line.detail.endpoint)).toEqual(['listCapacities', 'listCapacities', 'describeCapacity']);
    expect(log.entries().map((entry) => [entry.endpoint, entry.count])).toEqual([
      ['listCapacities', 2],
      ['listCapacities', 1],
      ['describeCapacity', 1],
    ]);
  });

  it('treats the same findings in another order as the same shape', () => {
    const { log, lines } = logWith();
    log.record('linkedAccounts', ['b', 'a']);
    log.record('linkedAccounts', ['a', 'b', 'a']);
    expect(lines).toHaveLength(1);
    expect(log.entries()[0]).toMatchObject({ findings: ['a', 'b'], count: 2 });
  });

  it('ignores an answer without differences and keeps at most its limit, dropping the oldest', () => {
    const { log } = logWith();
    log.record('linkedAccounts', []);
    for (const name of ['a', 'b', 'c', 'd']) log.record('linkedAccounts', [name]);
    expect(log.entries().map((entry) => entry.findings[0])).toEqual(['b', 'c', 'd']);
  });

  it('gives a support text with the paths and nothing else', () => {
    const { log } = logWith();
    log.record('listCapacities', ['missing data[].policyName']);
    const text = driftReportText({ service: 'https://api.example.com', appVersion: '1.2.3', entries: log.entries() });
    expect(text).toContain('Capacity Desk 1.2.3 — contract differences with https://api.example.com');
    expect(text).toContain('listCapacities (seen 1×');
    expect(text).toContain('  - missing data[].policyName');
    expect(driftReportText({ service: 's', appVersion: 'v', entries: [] })).toContain('No differences seen');
  });
});
