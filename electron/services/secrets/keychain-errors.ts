/** keytar's messages, mapped to what a person can do about them. */
export function explainKeychainFailure(error: unknown): string {
  const text = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}` : String(error);
  const known: Array<[RegExp, string]> = [
    [/MODULE_NOT_FOUND|Cannot find module/i, 'The keychain module is not installed in this build.'],
    [/autolaunch D-Bus without X11/i, 'No desktop session bus is running, so the system keychain cannot be reached.'],
    [/Could not connect/i, 'The desktop session bus is not answering, so the system keychain cannot be reached.'],
    [/org\.freedesktop\.secrets was not provided/i, 'No keychain service (Secret Service, e.g. GNOME Keyring) is installed or running.'],
    [/collection\/login/i, 'The login keyring does not exist or is not unlocked.'],
    [/locked collection/i, 'The keyring is locked.'],
  ];
  const hit = known.find(([pattern]) => pattern.test(text));
  const base = hit ? hit[1] : 'The system keychain is not available.';
  return `${base} Your session is kept in memory only and ends when the app closes.`;
}
