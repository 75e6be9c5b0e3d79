import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { RULE } from '../../shared/api/contract-choices.js';
import { sessionScope } from '../../renderer/lib/session-scope.js';
import { ConfigDraft, capacityDrafts as drafts } from '../../renderer/stores/capacity-drafts.svelte.js';
import { NEW_POLICY_CONFIGURATION } from '../support/capacity-configuration.js';

const current = NEW_POLICY_CONFIGURATION;

/** Runs `read` in an effect, as a view would, and returns every value it saw. */
function watch<T>(read: () => T): { seen: T[]; stop: () => void } {
  const seen: T[] = [];
  const stop = $effect.root(() => {
    $effect(() => {
      seen.push(read());
    });
  });
  flushSync();
  return { seen, stop };
}

describe('ConfigDraft', () => {
  it('starts clean from the policy, so a new policy\'s "default" and "none" block nothing', () => {
    const draft = new ConfigDraft(current);
    expect(draft.dirty).toBe(false);
    expect(draft.valid).toBe(true);
    expect(draft.ebsText).toBe('10');
  });

  it('checks only what was changed, with the shared rule text, and a view sees each change', () => {
    const draft = new ConfigDraft(current);
    const errors = watch(() => draft.shownErrors.vpc ?? null);
    draft.set('vpc', 'net-1');
    flushSync();
    expect(draft.changed).toEqual(['vpc']);
    expect(draft.valid).toBe(false);
    draft.set('vpc', 'vpc-1');
    flushSync();
    expect(draft.valid).toBe(true);
    expect(errors.seen).toEqual([null, RULE.vpc, null]);
    errors.stop();
  });

  it("shows the service's word on a field over the rule's until that field is edited, and keeps the others'", () => {
    const draft = new ConfigDraft(current);
    draft.set('vpc', 'vpc-1');
    draft.set('sshPairKey', 'key-1');
    draft.serverErrors = { vpc: 'vpc is not linked to the account', sshPairKey: 'key pair not found' };
    expect(draft.shownErrors).toEqual({ vpc: 'vpc is not linked to the account', sshPairKey: 'key pair not found' });
    draft.set('vpc', 'vpc-2');
    expect(draft.shownErrors).toEqual({ sshPairKey: 'key pair not found' });
  });

  it('reads the EBS box as typed: empty and non-numbers are errors, the text stays as the user left it', () => {
    const draft = new ConfigDraft(current);
    draft.setEbsText('abc');
    expect(draft.ebsText).toBe('abc');
    expect(draft.shownErrors.ebsVolumeSize).toBe(RULE.ebsVolumeSize);
    draft.setEbsText('');
    expect(draft.values.ebsVolumeSize).toBeNull();
    expect(draft.shownErrors.ebsVolumeSize).toBe(RULE.ebsVolumeSize);
    draft.setEbsText(' 200 ');
    expect(draft.values.ebsVolumeSize).toBe(200);
    expect(draft.valid).toBe(true);
  });

  it('follows a change made elsewhere while clean, and keeps the edits (against the new base) while dirty', () => {
    const clean = new ConfigDraft(current);
    clean.rebase({ ...current, vpc: 'vpc-from-another-window', ebsVolumeSize: 30 });
    expect(clean.values.vpc).toBe('vpc-from-another-window');
    expect(clean.ebsText).toBe('30');
    expect(clean.dirty).toBe(false);

    const dirty = new ConfigDraft(current);
    dirty.set('amiImage', 'ami-mine');
    dirty.rebase({ ...current, vpc: 'vpc-from-another-window' });
    expect(dirty.values.amiImage).toBe('ami-mine');
    // The other window's vpc is the new base; the user's draft still holds the old one, so it now differs.
    expect(dirty.changed.sort()).toEqual(['amiImage', 'vpc']);
  });

  it('discards back to the base and, once saved, starts again from what the service returned', () => {
    const draft = new ConfigDraft(current);
    draft.setEbsText('99');
    draft.serverErrors = { ebsVolumeSize: 'too large for this instance' };
    draft.discard();
    expect(draft.dirty).toBe(false);
    expect(draft.ebsText).toBe('10');
    expect(draft.shownErrors).toEqual({});

    draft.set('vpc', 'vpc-7');
    draft.saved({ ...current, vpc: 'vpc-7' });
    expect(draft.dirty).toBe(false);
    expect(draft.base.vpc).toBe('vpc-7');
  });
});

describe('the drafts store', () => {
  let runs = 0;
  // The app's one store: each test starts as a user of its own, which is what clears it.
  const fresh = () => {
    runs += 1;
    const alex = `sandbox\u0000alex-${runs}`;
    sessionScope.use(alex);
    return { alex, jordan: `sandbox\u0000jordan-${runs}` };
  };

  it('keeps one draft per policy across a view going away and coming back', () => {
    fresh();
    drafts.config('sc_1', current).set('vpc', 'vpc-typed');
    expect(drafts.config('sc_1', current).values.vpc).toBe('vpc-typed');
    expect(drafts.config('sc_2', current).dirty).toBe(false);
    drafts.forgetConfig('sc_1');
    expect(drafts.config('sc_1', current).dirty).toBe(false);
  });

  it("keeps a user's drafts through an expired session and their return, and drops them for another user", () => {
    const { alex, jordan } = fresh();
    drafts.search.instanceType = 'p5.48xlarge';
    drafts.config('sc_1', current).set('vpc', 'vpc-typed');

    sessionScope.use(null);
    sessionScope.use(alex);
    expect(drafts.search.instanceType).toBe('p5.48xlarge');
    expect(drafts.config('sc_1', current).values.vpc).toBe('vpc-typed');

    sessionScope.use(jordan);
    expect(drafts.search.instanceType).toBe('');
    expect(drafts.config('sc_1', current).dirty).toBe(false);
  });

  it('lets a bound field update the search draft in place, as the form does', () => {
    fresh();
    const typed = watch(() => drafts.search.platform);
    drafts.search.platform = 'Linux/UNIX';
    flushSync();
    expect(typed.seen).toEqual(['', 'Linux/UNIX']);
    drafts.resetSearch();
    flushSync();
    expect(typed.seen.at(-1)).toBe('');
    typed.stop();
  });
});
