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

class CapacityDrafts {
  #config = new Map<string, ConfigDraft>();
  search = $state<SearchDraft>(initialSearch());
  /** The zone name the offset came from, for the form's hint. */
  readonly zoneName = localZoneName();

  constructor() {
    // Another user starts with no drafts; a returning user (an expired session) keeps theirs.
    sessionScope.register(() => {
      this.#config.clear();
      this.search = initialSearch();
    });
  }

  config(cidrId: string, configuration: CapacityConfiguration): ConfigDraft {
    let draft = this.#config.get(cidrId);
    if (!draft) {
      draft = new ConfigDraft(configuration);
      this.#config.set(cidrId, draft);
    }
    return draft;
  }

  forgetConfig(cidrId: string): void {
    this.#config.delete(cidrId);
  }

  resetSearch(): void {
    this.search = initialSearch();
  }
}

export const capacityDrafts = new CapacityDrafts();
