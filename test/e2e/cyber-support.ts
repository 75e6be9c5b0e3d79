import type { Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CapacityPolicy } from '../../shared/api/capacity.js';
import type { CyberListItem } from '../../shared/api/cyber.js';
import { ENDPOINTS, buildPath, type EndpointName } from '../../shared/api/endpoints.js';
import { SANDBOX_USERS, type SandboxUser } from '../../sandbox/accounts.js';
import type { FaultRuleInput } from '../../sandbox/controls/faults.js';
import type { TestApp } from '../support/test-app.js';
import { expect, signIn } from './fixtures.js';
import { sandboxAccess } from '../support/test-app.js';
import { analyze, axeInScheme } from './support/axe.js';

/** Helpers shared by the issue-6 specs (DR policies, overview, accounts, export). */

export const ALEX = SANDBOX_USERS[0] as SandboxUser;
export const JORDAN = SANDBOX_USERS[1] as SandboxUser;

export const SCREENSHOT_DIR = join('artifacts', 'screenshots');

/** Signs in through the UI and waits for the home screen. */
export async function signInTo(page: Page, user: SandboxUser = ALEX): Promise<void> {
  await signIn(page, user.username, user.password);
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
}

export async function goTo(page: Page, label: 'Overview' | 'Disaster recovery' | 'Linked accounts' | 'Capacity policies'): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: label }).click();
}

/** Opens the DR list of a customer as a person would: the view, the id typed, Enter. */
export async function showCustomer(page: Page, customerId: string): Promise<void> {
  await goTo(page, 'Disaster recovery');
  await page.getByLabel('External customer id').fill(customerId);
  await page.keyboard.press('Enter');
}

/**
 * The page's own calls of an IPC channel from now on, each with its input, kept live.
 * Counting at the sandbox instead also counts the copy's refresh, which lists every
 * customer's DR policies beside whatever the person does (a CI run counted one of those).
 */
export function ipcCalls(page: Page, channel: string): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === `/ipc/${channel}`) calls.push(request.postData() ?? '');
  });
  return calls;
}

/** The sandbox's own API, as another client (a colleague, a second window) would use it. */
export class SandboxClient {
  private constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly access: Readonly<Record<string, string>>,
  ) {}

  static async signIn(app: TestApp, user: SandboxUser = ALEX): Promise<SandboxClient> {
    const response = await fetch(app.services.sandbox.url + ENDPOINTS.signIn.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...sandboxAccess(app.services) },
      body: JSON.stringify({ username: user.username, password: user.password }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string };
    return new SandboxClient(app.services.sandbox.url, body.access_token, sandboxAccess(app.services));
  }

  async call<T>(
    name: EndpointName,
    options: { params?: Record<string, string>; query?: Record<string, string | number> } = {},
  ): Promise<{ status: number; body: T }> {
    const def = ENDPOINTS[name];
    const url = new URL(this.base + buildPath(def.path, options.params ?? {}));
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const response = await fetch(url, { method: def.method, headers: { ...this.access, authorization: `Bearer ${this.token}` } });
    return { status: response.status, body: (await response.json()) as T };
  }

  /** Every cyber policy of a customer matching the filters, in the service's order. */
  async allCyber(customerId: string, query: Record<string, string> = {}): Promise<CyberListItem[]> {
    const rows: CyberListItem[] = [];
    for (let page = 1; ; page += 1) {
      const { status, body } = await this.call<{ data: CyberListItem[]; total: number }>('listCyberPolicies', {
        params: { cid_ext: customerId },
        query: { page, pageSize: 100, ...query },
      });
      expect(status).toBe(200);
      rows.push(...body.data);
      if (body.data.length === 0 || rows.length >= body.total) return rows;
    }
  }

  async allCapacities(): Promise<CapacityPolicy[]> {
    const rows: CapacityPolicy[] = [];
    for (let page = 1; ; page += 1) {
      const { status, body } = await this.call<{ data: CapacityPolicy[]; total: number }>('listCapacities', {
        query: { page, pageSize: 100, sortOrder: 'asc' },
      });
      expect(status).toBe(200);
      rows.push(...body.data);
      if (body.data.length === 0 || rows.length >= body.total) return rows;
    }
  }
}

/** Requests the sandbox has answered, per endpoint (counted on the server's side). */
export async function sandboxStats(app: TestApp): Promise<Record<EndpointName, number>> {
  const response = await fetch(`${app.services.sandbox.url}/sandbox/stats`, { headers: sandboxAccess(app.services) });
  return (await response.json()) as Record<EndpointName, number>;
}

export async function addFault(app: TestApp, rule: FaultRuleInput): Promise<void> {
  const response = await fetch(`${app.services.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...sandboxAccess(app.services) },
    body: JSON.stringify(rule),
  });
  expect(response.status).toBe(201);
}

export async function clearFaults(app: TestApp): Promise<void> {
  await fetch(`${app.services.sandbox.url}/sandbox/faults`, { method: 'DELETE', headers: sandboxAccess(app.services) });
}

/**
 * axe-core on the view as it is (everything under the shell's #content,
 * dialogs included), in light and in dark (its colour rules: see COLOUR_RULES): no violations allowed. The colour
 * scheme is switched with emulateMedia, so both palettes are checked. The
 * shell around the view (top bar, landmarks) is another issue's and is left out.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const results = await analyze(axeInScheme(page, colorScheme).include('#content'));
    const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(summary, `${what}, ${colorScheme} theme`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A 1280x800 screenshot for review, in artifacts/screenshots/. */
export async function screenshot(page: Page, name: string, colorScheme: 'light' | 'dark' = 'light'): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${colorScheme}.png`) });
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
}

/** A strict RFC 4180 reader for exported files (apart from the app's writer on purpose). */
export function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) throw new Error('the last record is not ended by CRLF');
  return rows;
}
