import { describe, expect, it } from 'vitest';
import { electronSuiteVerdict } from '../../../scripts/lib/electron-suite.js';

describe('whether the Electron suite may be skipped', () => {
  it('runs when there is an Electron', () => {
    expect(electronSuiteVerdict(null, {})).toEqual({ run: true });
    expect(electronSuiteVerdict(null, { CAPACITY_DESK_REQUIRE_ELECTRON: '1' })).toEqual({ run: true });
  });

  it('skips, saying why, where no binary exists and nobody required it, CI=true included (this project\'s own CI)', () => {
    for (const env of [{}, { CI: 'true' }, { CAPACITY_DESK_REQUIRE_ELECTRON: '0' }, { CAPACITY_DESK_REQUIRE_ELECTRON: 'yes' }]) {
      expect(electronSuiteVerdict('no Electron binary at x', env)).toEqual({ run: false, skip: 'Electron binary not available, so the Electron suite did not run: no Electron binary at x' });
    }
  });

  it('fails where the GitHub workflows require it', () => {
    expect(electronSuiteVerdict('no packaged app in release/test', { CAPACITY_DESK_REQUIRE_ELECTRON: '1', CI: 'true' })).toEqual({
      run: false,
      fail: 'CAPACITY_DESK_REQUIRE_ELECTRON=1, but there is no Electron to test (no packaged app in release/test): the Electron suite must run here.',
    });
  });
});
