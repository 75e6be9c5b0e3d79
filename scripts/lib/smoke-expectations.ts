import { z } from 'zod';

/**
 * What the smoke launch expects of each installer beyond "it starts", decided
 * here so test/packaging/smoke-expectations.test.ts can prove each branch.
 */
export type SmokeKind = 'appimage' | 'deb' | 'rpm' | 'nsis' | 'dmg';

/**
 * Chromium's sandbox: on everywhere, except the AppImage where the system
 * restricts unprivileged user namespaces (Ubuntu 24.04+ left as shipped):
 * electron-builder's launcher then passes --no-sandbox, a known limit the app
 * shows and logs; the deb and rpm keep the sandbox through their setuid
 * chrome-sandbox.
 */
export function expectedSandbox(kind: SmokeKind, usernsRestricted: boolean): boolean {
  return !(kind === 'appimage' && usernsRestricted);
}

export function sandboxProblem(kind: SmokeKind, usernsRestricted: boolean, sandboxed: boolean): string | null {
  const expected = expectedSandbox(kind, usernsRestricted);
  if (expected === sandboxed) return null;
  return expected
    ? `Chromium's sandbox was OFF, but ${kind} must run sandboxed${usernsRestricted ? ' even with user namespaces restricted' : ''}`
    : `Chromium's sandbox was on where it is known to be off (${kind} with user namespaces restricted): the expectation or the launcher changed, check docs/release.md`;
}

/** `Get-AuthenticodeSignature <file> | Select-Object Status, StatusMessage, SignerCertificate.Subject | ConvertTo-Json`. */
const Authenticode = z.object({ Status: z.union([z.string(), z.number()]), StatusMessage: z.string().nullish(), Subject: z.string().nullish() });

/** PowerShell 5 writes the enum's number (0 is Valid), PowerShell 7 its name. */
export function authenticodeProblem(file: string, json: string): string | null {
  let parsed: z.infer<typeof Authenticode>;
  try {
    parsed = Authenticode.parse(JSON.parse(json));
  } catch (error) {
    return `${file}: the Authenticode check answered something unreadable (${error instanceof Error ? error.message : String(error)})`;
  }
  if (parsed.Status === 'Valid' || parsed.Status === 0) return null;
  return `${file}: Authenticode status is ${String(parsed.Status)}, not Valid${parsed.StatusMessage ? ` (${parsed.StatusMessage})` : ''}`;
}

export const AUTHENTICODE_SCRIPT = (file: string): string =>
  `$s = Get-AuthenticodeSignature -LiteralPath '${file.replaceAll("'", "''")}'; [pscustomobject]@{ Status = [string]$s.Status; StatusMessage = $s.StatusMessage; Subject = $s.SignerCertificate.Subject } | ConvertTo-Json -Compress`;
