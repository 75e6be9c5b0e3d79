/**
 * Reusable output buffers for large bodies. A fresh 100 KB buffer per list
 * request costs more in garbage collection than building the body does; a
 * buffer comes back here once the socket has taken its bytes.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];

  constructor(
    /** Smaller bodies are cheap to allocate and are not pooled. */
    readonly minBytes = 16 * 1024,
    readonly slabBytes = 256 * 1024,
    private readonly maxFree = 64,
  ) {}

  /** A buffer of at least `size` bytes, or null when the body is better allocated plainly. */
  take(size: number): Buffer | null {
    if (size < this.minBytes || size > this.slabBytes) return null;
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.slabBytes);
  }

  give(slab: Buffer): void {
    if (slab.length === this.slabBytes && this.free.length < this.maxFree) this.free.push(slab);
  }
}
