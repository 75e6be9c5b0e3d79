import { z } from 'zod';
import { ConfigureFields, type CapacityConfiguration, type ConfigureRequest } from '../../shared/api/capacity.js';
import { CONFIGURABLE_FIELDS, parseFieldRule, ruleForPeople } from '../../shared/api/contract-choices.js';
import { isInputError, type AppError } from '../../shared/ipc/result.js';

/** The configure form's logic, free of any UI: values, rules, the body to send, server errors. */

export type ConfigField = (typeof CONFIGURABLE_FIELDS)[number];

export const ConfigValues = z.object({
  vpc: z.string(),
  securityGroup: z.string(),
  amiImage: z.string(),
  sshPairKey: z.string(),
  /** null while the number box is empty. */
  ebsVolumeSize: z.number().nullable(),
});
export type ConfigValues = z.infer<typeof ConfigValues>;

export type ConfigErrors = Partial<Record<ConfigField, string>>;

/** The policy's configuration as the form's fields name it (note the plural in responses). */
export function currentValuesOf(configuration: CapacityConfiguration): ConfigValues {
  return {
    vpc: configuration.vpc,
    securityGroup: configuration.securityGroups,
    amiImage: configuration.amiImage,
    sshPairKey: configuration.sshPairKey,
    ebsVolumeSize: configuration.ebsVolumeSize,
  };
}

/**
 * The form's starting values: the current configuration, except that a value
 * the field's own rule refuses (a new policy's "default" and "none") starts
 * empty, so the form never opens on a value it would then refuse; the view
 * shows what the service holds beside it. An untouched field is not sent.
 */
export function configValuesOf(configuration: CapacityConfiguration): ConfigValues {
  const current = currentValuesOf(configuration);
  const kept = (field: Exclude<ConfigField, 'ebsVolumeSize'>) => (fieldError(current, field) === null ? current[field] : '');
  return {
    vpc: kept('vpc'),
    securityGroup: kept('securityGroup'),
    amiImage: kept('amiImage'),
    sshPairKey: kept('sshPairKey'),
    ebsVolumeSize: current.ebsVolumeSize,
  };
}

function valueForRule(values: ConfigValues, field: ConfigField): unknown {
  // An empty number box is "no number", which the rule rejects with its own text.
  // Text is judged as it will be sent: without the spaces around it (a key pair of spaces is no name).
  return field === 'ebsVolumeSize' ? (values.ebsVolumeSize ?? Number.NaN) : values[field].trim();
}

/** The shared rule's message for one field, or null when the value passes. */
export function fieldError(values: ConfigValues, field: ConfigField): string | null {
  const result = ConfigureFields[field].safeParse(valueForRule(values, field));
  return result.success ? null : (result.error.issues[0]?.message ?? 'is not valid');
}

/** Rule messages for every field that fails, by field. */
export function configErrors(values: ConfigValues, fields: readonly ConfigField[] = CONFIGURABLE_FIELDS): ConfigErrors {
  const errors: ConfigErrors = {};
  for (const field of fields) {
    const message = fieldError(values, field);
    if (message) errors[field] = message;
  }
  return errors;
}

export function changedFields(values: ConfigValues, base: ConfigValues): ConfigField[] {
  return CONFIGURABLE_FIELDS.filter((field) => values[field] !== base[field]);
}

/**
 * The body for configure: only the changed fields (omitted ones keep their
 * value on the server), or null when nothing changed.
 */
export function configureBody(cidrId: string, values: ConfigValues, base: ConfigValues): ConfigureRequest | null {
  const changed = changedFields(values, base);
  if (changed.length === 0) return null;
  const body: ConfigureRequest = { cidrId };
  for (const field of changed) {
    if (field === 'ebsVolumeSize') body.ebsVolumeSize = values.ebsVolumeSize ?? Number.NaN;
    else body[field] = values[field].trim();
  }
  return body;
}

/** The form field a failure belongs to, from `error.field` only (the response's plural maps to the form's singular). */
export function configFieldOf(error: AppError): ConfigField | null {
  if (!isInputError(error) || !error.field) return null;
  const field = error.field === 'securityGroups' ? 'securityGroup' : error.field;
  return (CONFIGURABLE_FIELDS as readonly string[]).includes(field) ? (field as ConfigField) : null;
}

/** The rule text to show under the field: the service's own, after its "field: " prefix. */
export function ruleText(error: AppError): string {
  const described = error.description ? parseFieldRule(error.description) : null;
  return described?.rule ?? error.message;
}

/**
 * The message to show for a rule: the contract's person-worded one when the rule is
 * known ("must match ^sg-..." -> "A security group id looks like sg-0a1b2c3d ..."),
 * otherwise the text as a sentence ("is not valid" -> "Is not valid").
 */
export function sentence(rule: string): string {
  const worded = ruleForPeople(rule);
  if (worded) return worded;
  return rule.length === 0 ? rule : rule[0]!.toUpperCase() + rule.slice(1);
}

/** The EBS box's text as a number: null when empty, NaN when it is not a plain number (the rule then says why). */
export function parseEbsText(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^[-+]?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** Ids as AWS writes them: the prefix, then 8 or 17 lower-case hexadecimal characters. */
const AWS_ID = (prefix: string) => new RegExp(`^${prefix}-(?:[0-9a-f]{8}|[0-9a-f]{17})$`);

const LOOKS_LIKE: Partial<Record<ConfigField, { test: (value: string) => boolean; doubt: string }>> = {
  vpc: { test: (value) => AWS_ID('vpc').test(value), doubt: 'This does not look like a VPC id (vpc- and 8 or 17 hexadecimal characters, e.g. vpc-0a1b2c3d). It can be saved; check it first.' },
  amiImage: { test: (value) => AWS_ID('ami').test(value), doubt: 'This does not look like an AMI id (ami- and 8 or 17 hexadecimal characters, e.g. ami-0abc1234). It can be saved; check it first.' },
  sshPairKey: { test: (value) => !/\s/.test(value), doubt: 'Key pair names rarely contain spaces; check the name matches the key pair in the cloud account. It can be saved.' },
};

/**
 * Doubts about changed values the service accepts but that do not look like the cloud's own
 * format ("vpc-zz", "ami-x", a key name with a space): said, never blocking. A value its rule
 * refuses gets the rule's error instead.
 */
export function configWarnings(values: ConfigValues, changed: readonly ConfigField[]): ConfigErrors {
  const warnings: ConfigErrors = {};
  for (const field of changed) {
    const check = LOOKS_LIKE[field];
    if (!check || field === 'ebsVolumeSize' || fieldError(values, field) !== null) continue;
    if (!check.test(values[field].trim())) warnings[field] = check.doubt;
  }
  return warnings;
}
