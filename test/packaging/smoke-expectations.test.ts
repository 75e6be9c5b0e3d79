import { describe, expect, it } from 'vitest';
import { authenticodeProblem, expectedSandbox, sandboxProblem } from '../../scripts/lib/smoke-expectations.js';

describe('what the smoke launch expects of each installer', () => {
  it('expects the sandbox on everywhere but the AppImage on a system that restricts user namespaces', () => {
    expect(expectedSandbox('deb', true)).toBe(true);
    expect(expectedSandbox('rpm', true)).toBe(true);
    expect(expectedSandbox('appimage', true)).toBe(false);
    expect(expectedSandbox('appimage', false)).toBe(true);
    expect(sandboxProblem('deb', true, true)).toBeNull();
    expect(sandboxProblem('deb', true, false)).toMatch(/sandbox was OFF, but deb must run sandboxed even with user namespaces restricted/);
    expect(sandboxProblem('appimage', false, false)).toMatch(/OFF, but appimage must run sandboxed/);
    expect(sandboxProblem('appimage', true, false)).toBeNull();
    // Someone fixed the launcher (or the expectation is stale): say so rather than pass quietly.
    expect(sandboxProblem('appimage', true, true)).toMatch(/known to be off/);
  });

  it('accepts only an Authenticode status of Valid, from PowerShell 5 (number) or 7 (name)', () => {
    expect(authenticodeProblem('a.exe', '{"Status":"Valid","StatusMessage":"Signature verified.","Subject":"CN=Capacity Desk"}')).toBeNull();
    expect(authenticodeProblem('a.exe', '{"Status":0}')).toBeNull();
    expect(authenticodeProblem('a.exe', '{"Status":"NotSigned","StatusMessage":"The file is not digitally signed."}')).toBe(
      'a.exe: Authenticode status is NotSigned, not Valid (The file is not digitally signed.)',
    );
    expect(authenticodeProblem('a.exe', '{"Status":"HashMismatch"}')).toMatch(/HashMismatch, not Valid/);
    expect(authenticodeProblem('a.exe', '')).toMatch(/unreadable/);
    expect(authenticodeProblem('a.exe', '{"__proto__":{"Status":"Valid"}}')).toMatch(/unreadable/);
  });
});
