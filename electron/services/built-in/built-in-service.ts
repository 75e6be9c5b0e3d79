/** A published demo account of the built-in service; its password never leaves the main process. */
export interface DemoAccount {
  readonly username: string;
  readonly displayName: string;
  readonly password: string;
}

/** The built-in service while it runs: where it answers, what every request to it carries, how to stop it. */
export interface RunningBuiltInService {
  readonly url: string;
  readonly accessHeaders: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** How the hosts hand the built-in service over (sandbox/built-in.ts): its demo accounts, and a start with its state in the data folder. */
export interface BuiltInStarter {
  readonly demoAccounts: readonly DemoAccount[];
  start(dataDir: string): Promise<RunningBuiltInService>;
}

/** Where the built-in service will answer, shown before it runs (it gets a free port when started). */
const NOT_STARTED_URL = 'http://127.0.0.1';

/**
 * The built-in Sandbox environment's service, started the first time the
 * Sandbox is chosen (a sign-in to it, or its session restored), never before:
 * a person who never uses the Sandbox never has it listening. One start at a
 * time; a failed start can be tried again.
 */
export class BuiltInService {
  #running: RunningBuiltInService | null = null;
  #starting: Promise<RunningBuiltInService> | null = null;
  #closed = false;

  constructor(
    private readonly starter: BuiltInStarter,
    private readonly dataDir: string,
  ) {}

  get demoAccounts(): readonly DemoAccount[] {
    return this.starter.demoAccounts;
  }

  get running(): boolean {
    return this.#running !== null;
  }

  /** Its address once started; before, the loopback address it will have. */
  get url(): string {
    return this.#running?.url ?? NOT_STARTED_URL;
  }

  /** The headers a request to `baseUrl` must carry: the service's secret for its own address, nothing for any other. */
  headersFor(baseUrl: string): Readonly<Record<string, string>> | undefined {
    return this.#running && baseUrl.replace(/\/+$/, '') === this.#running.url ? this.#running.accessHeaders : undefined;
  }

  async start(): Promise<void> {
    if (this.#running) return;
    if (this.#closed) throw new Error('the app is closing');
    this.#starting ??= this.starter.start(this.dataDir).finally(() => {
      this.#starting = null;
    });
    const running = await this.#starting;
    if (!this.#closed) this.#running = running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const running = this.#running ?? (await this.#starting?.catch(() => null)) ?? null;
    this.#running = null;
    await running?.close();
  }
}
