import { describe, expect, it } from 'vitest';
import { sessionScope } from '../../renderer/lib/session-scope.js';

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
