/**
 * For tests of work done in slices: counts the event loop's turns while a
 * condition holds (a setImmediate chain), and spins the CPU for a while so a
 * step is known to outlast a slice. Work that never yields sees no turn.
 */
export function countTurns(counting: () => boolean): { readonly turns: () => number; readonly stop: () => void } {
  let turns = 0;
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    if (counting()) turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    turns: () => turns,
    stop: () => {
      ticking = false;
    },
  };
}

export function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}
