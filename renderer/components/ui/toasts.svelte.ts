import type { Tone } from './status.js';

export interface Toast {
  readonly id: number;
  readonly message: string;
  readonly tone: Extract<Tone, 'success' | 'info' | 'warning' | 'danger'>;
  /** Optional second line. */
  readonly detail?: string | undefined;
}

export interface ToastOptions {
  readonly detail?: string | undefined;
  /** Milliseconds before it goes by itself; 0 keeps it until dismissed. */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 6000;

/**
 * Short-lived confirmations ("Configuration saved") and a screen-reader-only
 * announcer for changes that need no visible note ("120 policies loaded").
 * <Toaster /> (mounted once by the app shell) renders both.
 */
class ToastStore {
  items = $state<Toast[]>([]);
  /** The latest polite announcement; the live region reads it out. */
  announcement = $state('');
  #nextId = 1;
  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  show(tone: Toast['tone'], message: string, options: ToastOptions = {}): number {
    const id = this.#nextId++;
    this.items = [...this.items.slice(-3), { id, tone, message, detail: options.detail }];
    const timeout = options.timeoutMs ?? (tone === 'danger' ? 0 : DEFAULT_TIMEOUT_MS);
    if (timeout > 0) this.#timers.set(id, setTimeout(() => this.dismiss(id), timeout));
    return id;
  }

  success(message: string, options?: ToastOptions): number {
    return this.show('success', message, options);
  }

  info(message: string, options?: ToastOptions): number {
    return this.show('info', message, options);
  }

  error(message: string, options?: ToastOptions): number {
    return this.show('danger', message, options);
  }

  dismiss(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    this.items = this.items.filter((toast) => toast.id !== id);
  }

  /** Says something to screen readers only. */
  announce(message: string): void {
    // Clearing first makes a repeated message be read again.
    this.announcement = '';
    queueMicrotask(() => {
      this.announcement = message;
    });
  }
}

export const toasts = new ToastStore();
