import { readFileSync, writeFileSync } from 'node:fs';

/** What the process held at its resident peak (MB), split as Node can tell it apart, and what it was doing then. */
export interface MemoryAtPeak {
  readonly rssMb: number;
  /** The kernel's high-water mark since the watch began (no peak missed between samples); NaN where /proc is not there. */
  readonly hwmMb: number;
  /** The main thread's V8 heap (reserved / used). */
  readonly heapTotalMb: number;
  readonly heapUsedMb: number;
  /** Memory of C++ objects bound to the main thread's JS objects, and of its ArrayBuffers (undici's bodies, Buffers). */
  readonly externalMb: number;
  readonly arrayBuffersMb: number;
  /** Everything else resident: the code, other threads' heaps (the rewrite and checkpoint threads), SQLite's page caches, malloc's. */
  readonly restMb: number;
  /** The phase the work said it was in at the peak, and when the peak came (ms after the start). */
  readonly phase: string;
  readonly atMs: number;
  /** RSS and the main heap reserved when the watch began: what the process held before the work. */
  readonly startRssMb: number;
  readonly startHeapTotalMb: number;
}

const MB = 2 ** 20;

/**
 * Samples the process's memory every `everyMs` while work runs, keeping the parts at the highest RSS seen; the
 * kernel's high-water mark (VmHWM, reset at the start) says whether a sample missed the real peak.
 */
export function watchMemoryPeak(phaseNow: () => string, everyMs = 20): { stop(): MemoryAtPeak } {
  resetHighWaterMark();
  const started = Date.now();
  const before = process.memoryUsage();
  let peak: MemoryAtPeak | null = null;
  const sample = () => {
    const usage = process.memoryUsage();
    if (peak && usage.rss / MB <= peak.rssMb) return;
    peak = {
      rssMb: usage.rss / MB,
      hwmMb: Number.NaN,
      heapTotalMb: usage.heapTotal / MB,
      heapUsedMb: usage.heapUsed / MB,
      externalMb: usage.external / MB,
      arrayBuffersMb: usage.arrayBuffers / MB,
      restMb: (usage.rss - usage.heapTotal - usage.external) / MB,
      phase: phaseNow(),
      atMs: Date.now() - started,
      startRssMb: before.rss / MB,
      startHeapTotalMb: before.heapTotal / MB,
    };
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { ...(peak as unknown as MemoryAtPeak), hwmMb: highWaterMarkMb() };
    },
  };
}

function resetHighWaterMark(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or not allowed: the samples alone say the peak.
  }
}

function highWaterMarkMb(): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** One line of the parts, for the bench's log. */
export function memoryLine(label: string, at: MemoryAtPeak): string {
  const mb = (n: number) => `${n.toFixed(0)}`;
  return `  ${label}: RSS ${mb(at.startRssMb)} MB before (main heap ${mb(at.startHeapTotalMb)} reserved); peak RSS ${mb(at.rssMb)} MB (kernel high-water ${mb(at.hwmMb)}) at ${(at.atMs / 1000).toFixed(1)} s, phase ${at.phase}: main heap ${mb(at.heapUsedMb)} used / ${mb(at.heapTotalMb)} reserved, external ${mb(at.externalMb)} (ArrayBuffers ${mb(at.arrayBuffersMb)}), rest ${mb(at.restMb)} (code, threads' heaps, SQLite caches, malloc)\n`;
}
