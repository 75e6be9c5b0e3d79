import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { NavigationStore, sectionOf, type Route } from '../../renderer/stores/navigation.svelte.js';

describe('NavigationStore', () => {
  it('moves between views with a back stack, and going to where the user already is changes nothing', () => {
    const nav = new NavigationStore();
    expect(nav.canGoBack).toBe(false);
    nav.go({ view: 'capacity-list' });
    nav.go({ view: 'capacity-detail', cidrId: 'sc_1' });
    nav.go({ view: 'capacity-detail', cidrId: 'sc_1' });
    expect(nav.back()).toBe(true);
    expect(nav.current).toEqual({ view: 'capacity-list' });
    expect(nav.back()).toBe(true);
    expect(nav.current).toEqual({ view: 'overview' });
    expect(nav.back()).toBe(false);
  });

  it('asks a guarded view before leaving, with the destination, and stays when it says no', () => {
    const nav = new NavigationStore();
    nav.go({ view: 'capacity-detail', cidrId: 'sc_1' });
    const asked: Array<Route | undefined> = [];
    let allow = false;
    nav.guardLeaving((to) => {
      asked.push(to);
      return allow;
    });
    expect(nav.go({ view: 'search' })).toBe(false);
    expect(nav.back()).toBe(false);
    expect(nav.current).toEqual({ view: 'capacity-detail', cidrId: 'sc_1' });
    expect(asked).toEqual([{ view: 'search' }, { view: 'overview' }]);

    allow = true;
    expect(nav.go({ view: 'search' })).toBe(true);
    // A guard lasts for its view only: the next move is not asked about.
    expect(nav.go({ view: 'accounts' })).toBe(true);
    expect(asked).toHaveLength(3);
  });

  it('removes only its own guard, so a view closing late cannot unguard the next one', () => {
    const nav = new NavigationStore();
    const removeFirst = nav.guardLeaving(() => true);
    nav.guardLeaving(() => false);
    removeFirst();
    expect(nav.go({ view: 'search' })).toBe(false);
  });

  it('keeps the last 50 places only', () => {
    const nav = new NavigationStore();
    for (let i = 0; i < 60; i++) nav.go({ view: 'capacity-detail', cidrId: `sc_${i}` });
    let steps = 0;
    while (nav.back()) steps++;
    expect(steps).toBe(50);
    expect(nav.current).toEqual({ view: 'capacity-detail', cidrId: 'sc_9' });
  });

  it('tells a view when the route changes', () => {
    const nav = new NavigationStore();
    const seen: string[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        seen.push(nav.current.view);
      });
    });
    flushSync();
    nav.go({ view: 'cyber-list' });
    flushSync();
    nav.back();
    flushSync();
    expect(seen).toEqual(['overview', 'cyber-list', 'overview']);
    stop();
  });

  it('puts a detail view in its list section', () => {
    expect(sectionOf('capacity-detail')).toBe('capacity-list');
    expect(sectionOf('cyber-detail')).toBe('cyber-list');
    expect(sectionOf('accounts')).toBe('accounts');
  });
});
