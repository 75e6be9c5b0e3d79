/**
 * How many functions are compiled from text (`new Function`, as zod's object checks are) while `run` runs: a check
 * warmed ahead compiles nothing when used. `Function` is put back however `run` ends.
 */
export function compiledDuring(run: () => void): number {
  const original = globalThis.Function;
  let compiled = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args: unknown[]) {
      compiled += 1;
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    run();
  } finally {
    globalThis.Function = original;
  }
  return compiled;
}
