import { describe, expect, it } from 'vitest';
import type { SessionStatus } from '../../shared/ipc/session.js';
import { scopeOf, sessionScope } from '../../renderer/lib/session-scope.js';

describe('the session scope', () => {
  it('resets every registered store when another user signs in, and nothing on sign-out or the same user returning', () => {
    let resets = 0;
    const unregister = sessionScope.register(() => (resets += 1));
    sessionScope.use('sandbox\u0000alex');
    expect(resets).toBe(0);
    sessionScope.use(null);
    sessionScope.use('sandbox\u0000alex');
    expect(resets).toBe(0);
    expect(sessionScope.current).toBe('sandbox\u0000alex');
    sessionScope.use('sandbox\u0000jordan');
    expect(resets).toBe(1);
    unregister();
    sessionScope.use('sandbox\u0000alex');
    expect(resets).toBe(1);
  });
});

describe('the scope of a session', () => {
  const status = (profileId: string, username: string): SessionStatus => ({ signedIn: true, profileId, username, keychain: { kind: 'memory' } });
  it('is another for another owner even when a part holds a separator (profile "a" with user "b\\u0000c" is not profile "a\\u0000b" with user "c")', () => {
    expect(scopeOf(status('a', 'b\u0000c'))).not.toBe(scopeOf(status('a\u0000b', 'c')));
    expect(scopeOf(status('a', 'b\nc'))).not.toBe(scopeOf(status('a\nb', 'c')));
    // The form every saved layout and view is kept under, unchanged for names without the separator.
    expect(scopeOf(status('sandbox', 'alex'))).toBe('sandbox\u0000alex');
  });
});
