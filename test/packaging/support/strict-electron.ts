import { EventEmitter } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext, type Context } from 'node:vm';

/**
 * A STRICT stand-in for the `electron` module, for the wiring proof of the
 * packaged main bundle (test/packaging/wiring.test.ts). It is not Electron:
 * it has no Chromium, draws nothing and runs no real renderer. What it does
 * is refuse what Electron refuses, loudly:
 *
 * - an API used before `ready` that Electron only allows after it (windows,
 *   sessions, protocol handlers, screen, menus, dialogs), or one that must
 *   come before `ready` used after it (privileged schemes);
 * - a main-process module used from the preload, or a renderer module used
 *   from the main process;
 * - any property this model does not know (a Proxy throws instead of
 *   handing back `undefined`), so new Electron calls fail here until they
 *   are modelled.
 *
 * Pages are "loaded" by asking the app's own protocol handler for the URL,
 * running the packaged preload (a CommonJS file, in a vm context that can
 * only require the renderer side of this stand-in) and exposing what it puts
 * on `window`; executeJavaScript evaluates in that context. IPC payloads go
 * through structuredClone, as Electron's IPC serialises them.
 */

export class StandInViolation extends Error {
  override readonly name = 'StandInViolation';
}

type Listener = (...args: never[]) => unknown;
type ProtocolHandler = (request: Request) => Response | Promise<Response>;
type IpcHandler = (event: unknown, ...args: unknown[]) => unknown;

export interface Frame {
  readonly url: string;
  readonly parent: Frame | null;
}

/** Throws on any property the model does not define: silence would hide an unmodelled API. */
function strict<T extends object>(name: string, target: T): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'symbol' || key in object) return Reflect.get(object, key, receiver) as unknown;
      // Promise resolution and module namespace probing look for these; they are not Electron API.
      if (key === 'then' || key === 'toJSON' || key === '__esModule') return undefined;
      throw new StandInViolation(`electron stand-in: ${name}.${key} is not modelled (add it to test/packaging/support/strict-electron.ts if the app needs it)`);
    },
  });
}

export interface StrictElectronOptions {
  readonly version: string;
  readonly appPath: string;
  readonly userData: string;
  readonly isPackaged: boolean;
  readonly platform: NodeJS.Platform;
}

export interface Display {
  readonly id: number;
  readonly bounds: { x: number; y: number; width: number; height: number };
  readonly workArea: { x: number; y: number; width: number; height: number };
  readonly scaleFactor: number;
}

export class StrictElectron {
  readonly violations: string[] = [];
  readonly log: string[] = [];
  readonly privilegedSchemes: Array<{ scheme: string; privileges: Record<string, boolean> }> = [];
  readonly protocolHandlers = new Map<string, ProtocolHandler>();
  readonly ipcHandlers = new Map<string, IpcHandler>();
  readonly windows: StandInWindow[] = [];
  readonly permissionHandlers: { request?: unknown; check?: unknown } = {};
  applicationMenu: unknown = null;
  readonly switches = new Map<string, string>();
  exitCode: number | null = null;

  #ready = false;
  #readyPromise: Promise<void>;
  #resolveReady!: () => void;
  readonly #paths: Map<string, string>;
  readonly #appEvents = new EventEmitter();
  #lockHeld = false;
  readonly #display: Display = { id: 1, bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 0, width: 1920, height: 1050 }, scaleFactor: 1 };

  /** What `import ... from 'electron'` gives the main process. */
  readonly main: Record<string, unknown>;
  /** What `require('electron')` gives a sandboxed preload. */
  readonly renderer: (page: StandInPage) => Record<string, unknown>;

  constructor(private readonly options: StrictElectronOptions) {
    this.#readyPromise = new Promise((resolve) => (this.#resolveReady = resolve));
    this.#paths = new Map([
      ['userData', options.userData],
      ['downloads', join(options.userData, 'Downloads')],
      ['logs', join(options.userData, 'logs')],
      ['temp', join(options.userData, 'tmp')],
      ['home', options.userData],
    ]);
    this.main = this.#mainModule();
    this.renderer = (page) => this.#rendererModule(page);
  }

  get isReady(): boolean {
    return this.#ready;
  }

  /** Electron's `ready`: what the harness calls once the main module has been evaluated. */
  emitReady(): void {
    // Electron creates the data folder at start-up (its single-instance lock lives there).
    mkdirSync(this.#paths.get('userData')!, { recursive: true });
    this.#ready = true;
    this.#resolveReady();
    this.#appEvents.emit('ready');
  }

  #violation(message: string): never {
    this.violations.push(message);
    throw new StandInViolation(`electron stand-in: ${message}`);
  }

  #afterReady(api: string): void {
    if (!this.#ready) this.#violation(`${api} was used before the app is ready (Electron allows it only after 'ready')`);
  }

  #mainOnly(api: string): void {
    if (this.#inPreload > 0) this.#violation(`${api} is a main-process API, used from the preload`);
  }

  #inPreload = 0;

  #mainModule(): Record<string, unknown> {
    const afterReady = (api: string): void => this.#afterReady(api);
    const violation = (message: string): never => this.#violation(message);
    const log = this.log;
    const guard = <T extends object>(name: string, target: T): T =>
      strict(
        name,
        new Proxy(target, {
          get: (object, key, receiver) => {
            if (typeof key === 'string' && key in object) this.#mainOnly(`${name}.${key}`);
            return Reflect.get(object, key, receiver) as unknown;
          },
        }),
      );

    const app = {
      isPackaged: this.options.isPackaged,
      requestSingleInstanceLock: () => {
        this.#lockHeld = true;
        return true;
      },
      hasSingleInstanceLock: () => this.#lockHeld,
      // As Electron: a prevented will-quit stops the quit; otherwise 'quit' follows and the process ends.
      quit: () => {
        this.log.push('app.quit');
        let prevented = false;
        const event = { preventDefault: () => (prevented = true) };
        this.#appEvents.emit('before-quit', event);
        if (prevented) return;
        this.#appEvents.emit('will-quit', event);
        if (prevented) {
          this.log.push('will-quit prevented');
          return;
        }
        this.#appEvents.emit('quit', { preventDefault: () => undefined }, 0);
        this.log.push('app.quit: exited');
        process.exit(0);
      },
      exit: (code = 0) => {
        this.exitCode = code;
        this.log.push(`app.exit(${code})`);
        process.exit(code);
      },
      on: (event: string, listener: Listener) => {
        this.#appEvents.on(event, listener as (...args: unknown[]) => void);
        return app;
      },
      once: (event: string, listener: Listener) => {
        this.#appEvents.once(event, listener as (...args: unknown[]) => void);
        return app;
      },
      emit: (event: string, ...args: unknown[]) => this.#appEvents.emit(event, ...args),
      whenReady: () => this.#readyPromise,
      isReady: () => this.#ready,
      setPath: (name: string, path: string) => {
        this.#paths.set(name, path);
      },
      getPath: (name: string) => this.#paths.get(name) ?? this.#violation(`app.getPath('${name}') is not modelled`),
      getVersion: () => this.options.version,
      getName: () => 'Capacity Desk',
      getAppPath: () => this.options.appPath,
      setAppUserModelId: (id: string) => {
        if (this.options.platform !== 'win32') this.#violation('app.setAppUserModelId is Windows-only');
        this.log.push(`appUserModelId ${id}`);
      },
      setAboutPanelOptions: (options: unknown) => {
        this.log.push(`aboutPanel ${JSON.stringify(options)}`);
      },
      setAppLogsPath: (path?: string) => {
        this.#paths.set('logs', path ?? join(this.options.userData, 'logs'));
      },
      disableHardwareAcceleration: () => {
        if (this.#ready) this.#violation('app.disableHardwareAcceleration must be called before the app is ready');
      },
      // Chromium reads its switches at start-up: one appended after ready does nothing, so it is refused.
      commandLine: strict('app.commandLine', {
        appendSwitch: (name: string, value?: string) => {
          if (this.#ready) this.#violation(`app.commandLine.appendSwitch('${name}') after the app is ready has no effect`);
          this.switches.set(name, value ?? '');
        },
        hasSwitch: (name: string) => this.switches.has(name),
        getSwitchValue: (name: string) => this.switches.get(name) ?? '',
      }),
    };

    const protocol = {
      registerSchemesAsPrivileged: (schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>) => {
        if (this.#ready) this.#violation('protocol.registerSchemesAsPrivileged must be called before the app is ready');
        this.privilegedSchemes.push(...schemes);
      },
      handle: (scheme: string, handler: ProtocolHandler) => {
        this.#afterReady('protocol.handle');
        if (!this.privilegedSchemes.some((entry) => entry.scheme === scheme)) this.#violation(`protocol.handle('${scheme}') for a scheme never registered as privileged`);
        if (this.protocolHandlers.has(scheme)) this.#violation(`protocol.handle('${scheme}') twice`);
        this.protocolHandlers.set(scheme, handler);
      },
    };

    const defaultSession = {
      setPermissionRequestHandler: (handler: unknown) => {
        this.permissionHandlers.request = handler;
      },
      setPermissionCheckHandler: (handler: unknown) => {
        this.permissionHandlers.check = handler;
      },
      // No proxy configured on this machine: Chromium's answer is DIRECT.
      resolveProxy: (url: string) => {
        new URL(url);
        return Promise.resolve('DIRECT');
      },
      setSpellCheckerLanguages: (languages: string[]) => {
        this.log.push(`spellchecker ${languages.join(',')}`);
      },
      setSpellCheckerDictionaryDownloadURL: (url: string) => {
        new URL(url);
        this.log.push(`dictionaries ${url}`);
      },
      setSpellCheckerEnabled: (enabled: boolean) => {
        if (typeof enabled !== 'boolean') this.#violation(`setSpellCheckerEnabled(${String(enabled)}) takes a boolean`);
        this.log.push(`spellcheck ${enabled ? 'on' : 'off'}`);
      },
      availableSpellCheckerLanguages: ['en-US'],
    };
    const session = {
      get defaultSession() {
        afterReady('session.defaultSession');
        return strict('session.defaultSession', defaultSession);
      },
    };

    const ipcMain = {
      handle: (channel: string, handler: IpcHandler) => {
        if (this.ipcHandlers.has(channel)) this.#violation(`ipcMain.handle('${channel}') twice (Electron throws)`);
        this.ipcHandlers.set(channel, handler);
      },
      removeHandler: (channel: string) => {
        this.ipcHandlers.delete(channel);
      },
    };

    const screen = {
      getAllDisplays: () => {
        this.#afterReady('screen.getAllDisplays');
        return [this.#display];
      },
      getPrimaryDisplay: () => {
        this.#afterReady('screen.getPrimaryDisplay');
        return this.#display;
      },
    };

    const Menu = {
      buildFromTemplate: (template: unknown[]) => {
        if (!Array.isArray(template)) this.#violation('Menu.buildFromTemplate needs an array');
        return {
          template,
          popup: () => {
            this.#afterReady('Menu.popup');
          },
        };
      },
      setApplicationMenu: (menu: unknown) => {
        this.#afterReady('Menu.setApplicationMenu');
        this.applicationMenu = menu;
      },
    };

    const shell = {
      openExternal: (url: string) => {
        this.log.push(`openExternal ${url}`);
        return Promise.resolve();
      },
      openPath: (path: string) => {
        this.log.push(`openPath ${path}`);
        return Promise.resolve('');
      },
    };

    class Notification extends EventEmitter {
      static isSupported(): boolean {
        return true;
      }
      constructor(readonly options: unknown) {
        super();
        afterReady('new Notification');
      }
      show(): void {
        log.push(`notification ${JSON.stringify(this.options)}`);
      }
    }

    const dialog = {
      showSaveDialog: () => {
        this.#afterReady('dialog.showSaveDialog');
        return Promise.resolve({ canceled: true, filePath: undefined });
      },
      // The one dialog Electron allows before ready (a failed start may need it).
      showErrorBox: (title: string, content: string) => {
        this.log.push(`errorBox ${title}: ${content}`);
      },
      showMessageBox: (...args: unknown[]) => {
        this.#afterReady('dialog.showMessageBox');
        this.log.push(`messageBox ${JSON.stringify(args.at(-1))}`);
        return Promise.resolve({ response: 0, checkboxChecked: false });
      },
    };

    // No keyring behind Chromium here: the backend is basic_text, which the app must not count as secure.
    const safeStorage = {
      isEncryptionAvailable: () => this.#ready,
      getSelectedStorageBackend: () => {
        if (this.options.platform !== 'linux') this.#violation('safeStorage.getSelectedStorageBackend is Linux-only');
        this.#afterReady('safeStorage.getSelectedStorageBackend');
        return 'basic_text';
      },
      encryptString: (text: string) => {
        this.#afterReady('safeStorage.encryptString');
        return Buffer.from(`basic_text:${text}`);
      },
      decryptString: (data: Buffer) => {
        this.#afterReady('safeStorage.decryptString');
        return data.toString('utf8').replace(/^basic_text:/, '');
      },
    };

    // Native crash dumps: only before ready is the whole app covered, and this app never uploads them.
    const crashReporter = {
      start: (options: { uploadToServer?: boolean }) => {
        if (this.#ready) this.#violation('crashReporter.start after ready misses crashes of the start-up');
        if (options.uploadToServer !== false) this.#violation('crashReporter.start must not upload (uploadToServer: false)');
        this.log.push(`crashReporter ${JSON.stringify(options)}`);
      },
    };

    // Chromium's network stack: there is none here, so any use of it fails plainly (the workflows prove it in Electron).
    const net = {
      fetch: (url: string) => {
        this.#afterReady('net.fetch');
        return Promise.reject(new Error(`electron stand-in: net.fetch(${url}) has no Chromium network stack behind it`));
      },
    };

    const openWindow = (options: Record<string, unknown>): Record<string, unknown> => {
      this.#afterReady('new BrowserWindow');
      const window = new StandInWindow(this, options);
      this.windows.push(window);
      this.#appEvents.emit('browser-window-created', { preventDefault: () => undefined }, window.api);
      return window.api;
    };
    const BrowserWindow = function BrowserWindow(options: Record<string, unknown>) {
      if (!new.target) violation('BrowserWindow must be constructed with new');
      return openWindow(options);
    } as unknown as { new (options: Record<string, unknown>): unknown; getAllWindows(): unknown[]; getFocusedWindow(): unknown };
    Object.assign(BrowserWindow, {
      getAllWindows: () => this.windows.filter((window) => !window.destroyed).map((window) => window.api),
      getFocusedWindow: () => this.windows.find((window) => !window.destroyed && window.focused)?.api ?? null,
    });

    const wrongProcess = (name: string) =>
      new Proxy(
        {},
        {
          get: (_object, key) => {
            if (typeof key === 'symbol' || key === 'then') return undefined;
            return violation(`${name}.${String(key)} is a renderer API, used in the main process`);
          },
        },
      );

    return {
      app: guard('app', app),
      protocol: guard('protocol', protocol),
      session: guard('session', session),
      ipcMain: guard('ipcMain', ipcMain),
      screen: guard('screen', screen),
      Menu: guard('Menu', Menu),
      shell: guard('shell', shell),
      Notification,
      dialog: guard('dialog', dialog),
      safeStorage: guard('safeStorage', safeStorage),
      crashReporter: guard('crashReporter', crashReporter),
      net: guard('net', net),
      BrowserWindow,
      contextBridge: wrongProcess('contextBridge'),
      ipcRenderer: wrongProcess('ipcRenderer'),
    };
  }

  #rendererModule(page: StandInPage): Record<string, unknown> {
    const contextBridge = {
      exposeInMainWorld: (key: string, value: unknown) => {
        if (key in page.world) this.#violation(`contextBridge.exposeInMainWorld('${key}') twice`);
        // The bridge copies: the page gets its own object, functions stay callable, nothing else crosses.
        page.world[key] = value;
      },
    };
    const listeners = page.rendererListeners;
    const ipcRenderer = {
      invoke: (channel: string, ...args: unknown[]) => page.invoke(channel, args),
      on: (channel: string, listener: (...args: unknown[]) => void) => {
        listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
        return ipcRenderer;
      },
      removeListener: (channel: string, listener: (...args: unknown[]) => void) => {
        listeners.set(
          channel,
          (listeners.get(channel) ?? []).filter((entry) => entry !== listener),
        );
        return ipcRenderer;
      },
    };
    const mainOnly = (name: string) =>
      new Proxy(
        {},
        {
          get: (_object, key) => {
            if (typeof key === 'symbol' || key === 'then') return undefined;
            return this.#violation(`${name}.${String(key)} is a main-process API, used from the preload`);
          },
        },
      );
    return {
      contextBridge: strict('contextBridge', contextBridge),
      ipcRenderer: strict('ipcRenderer', ipcRenderer),
      app: mainOnly('app'),
      BrowserWindow: mainOnly('BrowserWindow'),
      ipcMain: mainOnly('ipcMain'),
      protocol: mainOnly('protocol'),
    };
  }

  /** Runs the packaged preload for a page, as Electron does before the page's scripts. */
  runPreload(page: StandInPage, preloadPath: string): void {
    const source = readFileSync(preloadPath, 'utf8');
    const module = { exports: {} as unknown };
    const requireInPreload = (name: string): unknown => {
      // A sandboxed preload gets electron's renderer modules and little else; this app needs nothing else.
      if (name === 'electron') return strict('electron (renderer)', this.renderer(page));
      return this.#violation(`the sandboxed preload required '${name}'`);
    };
    const sandbox = createContext({ console, setTimeout, clearTimeout, Promise });
    const wrapper = runInContext(`(function (exports, require, module) {${source}\n})`, sandbox, { filename: preloadPath }) as (exports: unknown, require: unknown, module: unknown) => void;
    this.#inPreload += 1;
    try {
      wrapper(module.exports, requireInPreload, module);
    } finally {
      this.#inPreload -= 1;
    }
  }
}

/** What a window shows: the page's world (what the preload exposed) and its IPC plumbing. */
export class StandInPage {
  readonly world: Record<string, unknown> = {};
  readonly rendererListeners = new Map<string, Array<(...args: unknown[]) => void>>();
  #context: Context | null = null;

  constructor(
    readonly frame: Frame,
    readonly contents: StandInWebContents,
  ) {}

  /** ipcRenderer.invoke: the main side's handler, with this page's frame as the sender. */
  async invoke(channel: string, args: unknown[]): Promise<unknown> {
    return this.contents.electron.invokeFrom(this.contents, this.frame, channel, args);
  }

  evaluate(code: string): unknown {
    // The page's global is its window: what the preload exposed, its location, a loaded document.
    this.#context ??= createContext({ ...this.world, location: { href: this.frame.url }, document: { readyState: 'complete' } });
    return runInContext(code, this.#context);
  }
}

export class StandInWebContents extends EventEmitter {
  readonly id: number;
  destroyed = false;
  page: StandInPage | null = null;
  windowOpenHandler: unknown = null;

  constructor(
    readonly electron: StrictElectron & { invokeFrom: StrictElectronInvoke },
    readonly preloadPath: string | undefined,
    id: number,
  ) {
    super();
    this.id = id;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  setWindowOpenHandler(handler: unknown): void {
    this.windowOpenHandler = handler;
  }

  getURL(): string {
    return this.page?.frame.url ?? '';
  }

  /** Reloads the current page the way it was loaded (protocol handler, preload). */
  reload(): void {
    const url = this.getURL();
    if (url) void this.load(url);
  }

  replaceMisspelling(word: string): void {
    this.electron.log.push(`replaceMisspelling ${word}`);
  }

  // The edit commands a context menu sends to the focused page.
  undo(): void {}
  redo(): void {}
  cut(): void {}
  copy(): void {}
  paste(): void {}
  selectAll(): void {}

  send(channel: string, payload: unknown): void {
    if (this.destroyed) throw new StandInViolation('electron stand-in: webContents.send on a destroyed webContents');
    const copy = structuredClone(payload);
    for (const listener of this.page?.rendererListeners.get(channel) ?? []) listener({ sender: null }, copy);
  }

  async executeJavaScript(code: string): Promise<unknown> {
    if (!this.page) throw new StandInViolation('electron stand-in: executeJavaScript with no page loaded');
    return structuredClone(await this.page.evaluate(code));
  }

  /** Loads through the app's own protocol handler; any other scheme fails as it would offline. */
  async load(url: string): Promise<void> {
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = this.electron.protocolHandlers.get(scheme);
    const fail = (code: number, description: string) => this.emit('did-fail-load', { preventDefault: () => undefined }, code, description, url, true);
    if (!handler) return void fail(-301, `ERR_UNKNOWN_URL_SCHEME (no handler for ${scheme}:)`);
    const response = await handler(new Request(url));
    if (response.status !== 200) return void fail(-6, `ERR_FILE_NOT_FOUND (${response.status})`);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/html')) return void fail(-2, 'not a page');
    this.page = new StandInPage({ url, parent: null }, this);
    if (this.preloadPath) this.electron.runPreload(this.page, this.preloadPath);
    this.emit('dom-ready', { preventDefault: () => undefined });
    this.emit('did-finish-load', { preventDefault: () => undefined });
  }
}

export type StrictElectronInvoke = (contents: StandInWebContents, frame: Frame, channel: string, args: unknown[]) => Promise<unknown>;

class StandInWindow extends EventEmitter {
  destroyed = false;
  focused = false;
  visible = false;
  readonly contents: StandInWebContents;
  readonly api: Record<string, unknown>;

  constructor(
    readonly electron: StrictElectron,
    readonly options: Record<string, unknown>,
  ) {
    super();
    const webPreferences = (options.webPreferences ?? {}) as Record<string, unknown>;
    if (webPreferences.contextIsolation !== true || webPreferences.sandbox !== true || webPreferences.nodeIntegration === true) {
      electron.violations.push('a window without contextIsolation and sandbox, or with nodeIntegration');
    }
    this.contents = new StandInWebContents(electron as StrictElectron & { invokeFrom: StrictElectronInvoke }, typeof webPreferences.preload === 'string' ? webPreferences.preload : undefined, electron.windows.length + 1);
    const bounds = { x: 0, y: 0, width: Number(options.width ?? 800), height: Number(options.height ?? 600) };
    this.api = strict('BrowserWindow', {
      webContents: strict('webContents', this.contents),
      on: (event: string, listener: Listener) => {
        this.on(event, listener as (...args: unknown[]) => void);
        return this.api;
      },
      once: (event: string, listener: Listener) => {
        this.once(event, listener as (...args: unknown[]) => void);
        return this.api;
      },
      loadURL: async (url: string) => {
        await this.contents.load(url);
        this.emit('ready-to-show');
      },
      show: () => {
        this.visible = true;
        this.focused = true;
      },
      hide: () => {
        this.visible = false;
      },
      focus: () => {
        this.focused = true;
      },
      isVisible: () => this.visible,
      isMinimized: () => false,
      restore: () => undefined,
      maximize: () => undefined,
      setFullScreen: () => undefined,
      isMaximized: () => false,
      isFullScreen: () => false,
      getBounds: () => ({ ...bounds }),
      getNormalBounds: () => ({ ...bounds }),
      isDestroyed: () => this.destroyed,
      close: () => {
        this.emit('close', { preventDefault: () => undefined });
        this.destroyed = true;
        this.contents.destroyed = true;
        this.contents.emit('destroyed');
        this.emit('closed');
      },
    });
  }
}

/** Adds the IPC delivery (kept here so StandInPage need not know the handler table). */
export function createStrictElectron(options: StrictElectronOptions): StrictElectron & { invokeFrom: StrictElectronInvoke } {
  const electron = new StrictElectron(options) as StrictElectron & { invokeFrom: StrictElectronInvoke };
  electron.invokeFrom = async (contents, frame, channel, args) => {
    const handler = electron.ipcHandlers.get(channel);
    if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
    const event = { sender: contents, senderFrame: frame, processId: 1, frameId: 1 };
    return structuredClone(await handler(event, ...structuredClone(args)));
  };
  return electron;
}
