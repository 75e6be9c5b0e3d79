import type { CapacityConfiguration } from '../../shared/api/capacity.js';
import {
  changedFields,
  configErrors,
  configValuesOf,
  currentValuesOf,
  parseEbsText,
  type ConfigErrors,
  type ConfigField,
  type ConfigValues,
} from '../lib/configure-form.js';
import { defaultWindow, localZoneName, type SearchDraft } from '../lib/search-form.js';
import { keepDrafts, readKeptDrafts, type KeptConfig, type KeptDrafts } from '../lib/kept-drafts.js';
import { localUtcOffsetHours } from '../../shared/format/dates.js';
import { sessionScope } from '../lib/session-scope.js';

/**
 * Unsaved form input, kept outside the views: a view that goes away (the
 * session expired and sign-in took the screen, or the user looked at another
 * policy) finds the user's typing again when it comes back.
 */
export class ConfigDraft {
  values: ConfigValues;
  /** The configuration the edits started from. */
  base: ConfigValues;
  /** What the service holds now, shown beside a field that starts empty because its value breaks the field's rule. */
  current: ConfigValues;
  /** What the service said about a field on the last save, until that field is edited. */
  serverErrors = $state<ConfigErrors>({});
  /** The form is open (so it reopens after the view comes back). */
  editing = $state(false);
  /** What the EBS box holds, as typed (values.ebsVolumeSize is its reading). */
  ebsText = $state('');

  // Getters rather than $derived: they read fields the constructor sets, and cost a few regex tests.
  get changed(): ConfigField[] {
    return changedFields(this.values, this.base);
  }

  get dirty(): boolean {
    return this.changed.length > 0;
  }

  /**
   * Rules apply to changed fields only: an unchanged one is not sent and keeps
   * whatever the service holds (a new policy's "default" and "none" included).
   */
  get ruleErrors(): ConfigErrors {
    return configErrors(this.values, this.changed);
  }

  get valid(): boolean {
    return Object.keys(this.ruleErrors).length === 0;
  }

  /** Errors to show: the service's for a field it refused, else the shared rule's for a changed field. */
  get shownErrors(): ConfigErrors {
    return { ...this.ruleErrors, ...this.serverErrors };
  }

  constructor(configuration: CapacityConfiguration) {
    this.values = $state(configValuesOf(configuration));
    this.base = $state(configValuesOf(configuration));
    this.current = $state(currentValuesOf(configuration));
    this.ebsText = String(configuration.ebsVolumeSize);
  }

  setEbsText(text: string): void {
    this.ebsText = text;
    this.set('ebsVolumeSize', parseEbsText(text));
  }

  set<K extends ConfigField>(field: K, value: ConfigValues[K]): void {
    (this.values)[field] = value;
    if (field in this.serverErrors) {
      const { [field]: _gone, ...rest } = this.serverErrors;
      this.serverErrors = rest;
    }
  }

  /** The saved configuration: the new starting point, nothing left unsaved. */
  saved(configuration: CapacityConfiguration): void {
    this.values = configValuesOf(configuration);
    this.base = configValuesOf(configuration);
    this.current = currentValuesOf(configuration);
    this.ebsText = String(configuration.ebsVolumeSize);
    this.serverErrors = {};
  }

  /** The server's configuration moved on (another window) while not editing: follow it. */
  rebase(configuration: CapacityConfiguration): void {
    if (!this.dirty) this.saved(configuration);
    else this.base = configValuesOf(configuration);
  }

  discard(): void {
    this.values = { ...this.base };
    this.ebsText = String(this.base.ebsVolumeSize ?? '');
    this.serverErrors = {};
  }
}

function initialSearch(): SearchDraft {
  return { instanceType: '', platform: '', availabilityZone: '', ...defaultWindow(new Date()), utcOffset: localUtcOffsetHours(new Date()) };
}

/** The window's session storage, where input outlives a reload (absent outside a browser). */
const storage = globalThis.sessionStorage as Storage | undefined;

class CapacityDrafts {
  #config = new Map<string, ConfigDraft>();
  search = $state<SearchDraft>(initialSearch());
  /** The zone name the offset came from, for the form's hint. */
  readonly zoneName = localZoneName();
  /** What the page before a reload left, until it is known whose session this is. */
  #kept: KeptDrafts | null = readKeptDrafts(storage);
  /** Kept configuration drafts of the signed-in user, taken when their policy's form is next asked for. */
  #keptConfigs = new Map<string, KeptConfig>();

  constructor() {
    // Another user starts with no drafts; a returning user (an expired session) keeps theirs.
    sessionScope.register(() => {
      this.#config.clear();
      this.#keptConfigs.clear();
      this.#kept = null;
      this.search = initialSearch();
      keepDrafts(storage, null);
    });
    // A reload of the window (or the browser host's page) keeps what was typed and not saved.
    globalThis.addEventListener?.('pagehide', () => this.#keep());
  }

  /**
   * Takes back what the page before a reload left, once the signed-in user is
   * known: only their own input, never another user's (the views call it when
   * they open; asking for a policy's form does too).
   */
  restoreKept(): void {
    const kept = this.#kept;
    const scope = sessionScope.current;
    if (!kept || scope === null) return;
    this.#kept = null;
    if (kept.scope !== scope) {
      keepDrafts(storage, null);
      return;
    }
    this.search = kept.search;
    for (const [cidrId, draft] of kept.configs) this.#keptConfigs.set(cidrId, draft);
  }

  config(cidrId: string, configuration: CapacityConfiguration): ConfigDraft {
    this.restoreKept();
    let draft = this.#config.get(cidrId);
    if (!draft) {
      draft = new ConfigDraft(configuration);
      const kept = this.#keptConfigs.get(cidrId);
      if (kept) {
        this.#keptConfigs.delete(cidrId);
        draft.values = kept.values;
        draft.base = kept.base;
        draft.editing = kept.editing;
        draft.ebsText = kept.ebsText;
        // The service may have moved on since: an untouched draft follows it, an edited one keeps the edits.
        draft.rebase(configuration);
      }
      this.#config.set(cidrId, draft);
    }
    return draft;
  }

  /** Writes what is unsaved for the page after a reload; nothing when no one is signed in. */
  #keep(): void {
    const scope = sessionScope.current;
    if (scope === null) return keepDrafts(storage, null);
    const open: Array<[string, KeptConfig]> = [];
    for (const [cidrId, draft] of this.#config) {
      if (!draft.dirty && !draft.editing) continue;
      open.push([
        cidrId,
        { values: $state.snapshot(draft.values), base: $state.snapshot(draft.base), editing: draft.editing, ebsText: draft.ebsText },
      ]);
    }
    // Kept drafts of policies not opened since the last reload go on to the next page too.
    const untouched = [...this.#keptConfigs].filter(([cidrId]) => !this.#config.has(cidrId));
    const configs = [...open, ...untouched];
    keepDrafts(storage, { scope, search: $state.snapshot(this.search), configs: configs.slice(0, 200) });
  }

  forgetConfig(cidrId: string): void {
    this.#config.delete(cidrId);
  }

  resetSearch(): void {
    this.search = initialSearch();
  }
}

export const capacityDrafts = new CapacityDrafts();
