/**
 * Runs `then` once the next frame has been painted (a frame, then a task), so
 * what is on screen now shows before the work `then` starts. Answers the
 * cancel. Where there are no frames (a test runner), a task.
 */
export function afterNextPaint(then: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(then, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => (timer = setTimeout(then, 0)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** The same as a promise: resolved once the next frame has been painted. */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => afterNextPaint(resolve));
}

/**
 * Runs `then` once the next frame has been painted and the page is then idle (no task waiting), or after
 * `timeoutMs` at the latest: for work that follows what a person waits for (a count read out, suggestions
 * refreshed) and must not delay it, nor the next key's handling behind it. Answers the cancel.
 */
export function whenIdleAfterPaint(then: () => void, timeoutMs = 1_000): () => void {
  if (typeof requestIdleCallback !== 'function') return afterNextPaint(then);
  let idle: number | undefined;
  const stopPaint = afterNextPaint(() => (idle = requestIdleCallback(then, { timeout: timeoutMs })));
  return () => {
    stopPaint();
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}
