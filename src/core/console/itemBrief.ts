import { REDACTED } from '../http/redact';
import { codeFence } from '../markdown';
import type { Activity, ResourceItem } from './types';

/*
 * A cloud resource or activity as a compact JSON block for a chat question ("Ask @stratus"): its
 * id, kind, fields and, for a failed activity, its reason. Fields whose name says they hold a
 * secret are replaced, whatever their value, and so are the values of name/value pairs whose name
 * does (`[{"name": "DB_PASSWORD", "value": "…"}]`); the caller also passes the text through the one
 * redactor (known secrets and their encodings), as every log line and error is.
 */

/**
 * A field named like a credential: its value is never sent. Tested on the name in snake case
 * (`accessKey`, `access-key` and `ACCESS_KEY` all read `access_key`), so a word is found at its edges:
 * `key` as the last word (`accessKey`, `storage_key`, but not `keyName` or `monkey`; a public key is
 * no secret), `pwd`, `dsn`, signatures (`X-Amz-Signature`, a SAS's `sig`), kubeconfigs, VM user data
 * and cloud-init scripts, connection strings.
 */
const SECRET_NAME = /pass(word|wd|phrase)?|(^|_)pwd(_|$)|secret|token|(api|access|auth|private|ssh|master|account|storage|signing|encryption)_?key$|(^|_)key$|credential|authori[sz]ation|cookie|signature|(^|_)sig$|kube_?config|user_?data|cloud_?(init|config)|conn(ection)?_?str(ing)?|(^|_)dsn$|^pin$|^otp$/;
const PUBLIC_KEY = /(^|_)public_?key$/;

function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();
}

export function isSecretName(name: string): boolean {
  const words = snakeCase(name);
  return SECRET_NAME.test(words) && !PUBLIC_KEY.test(words);
}

/**
 * The label of a name/value pair (`{"name": "DB_PASSWORD", "value": "…"}`, `{"Key": …, "Value": …}`:
 * environment variables, settings, tags), or undefined when `value` is no such pair.
 */
function pairLabel(value: Record<string, unknown>): { labelKey: string; valueKey: string; label: string } | undefined {
  const keys = Object.keys(value);
  const valueKey = keys.find((k) => k.toLowerCase() === 'value');
  const labelKey = keys.find((k) => k.toLowerCase() === 'name') ?? keys.find((k) => k.toLowerCase() === 'key');
  const label = labelKey === undefined ? undefined : value[labelKey];
  return valueKey !== undefined && labelKey !== undefined && typeof label === 'string' ? { labelKey, valueKey, label } : undefined;
}

/** What the block holds at most, so a chat question stays small. */
export const MAX_BRIEF_CHARS = 4_000;

interface Limits {
  readonly depth: number;
  readonly strings: number;
  readonly items: number;
}

const FULL: Limits = { depth: 4, strings: 400, items: 20 };
const SHORT: Limits = { depth: 2, strings: 80, items: 5 };

/** `value` with secret-named fields (and the values of secret-named pairs) replaced, long strings and lists cut, deep objects summarised. */
export function redactFields(value: unknown, limits: Limits = FULL, depth = 0): unknown {
  if (typeof value === 'string') return value.length > limits.strings ? `${value.slice(0, limits.strings)}…` : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= limits.depth) return Array.isArray(value) ? `[${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    const kept = value.slice(0, limits.items).map((v) => redactFields(v, limits, depth + 1));
    return value.length > limits.items ? [...kept, `… ${value.length - limits.items} more`] : kept;
  }
  const record = value as Record<string, unknown>;
  // In a pair, the label names the value: its own field (`key`) is no secret, the value is one when the label says so.
  const pair = pairLabel(record);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(record)) {
    const secret = pair && key === pair.labelKey ? false : pair && key === pair.valueKey ? isSecretName(pair.label) : isSecretName(key);
    out[key] = secret ? REDACTED : redactFields(v, limits, depth + 1);
  }
  return out;
}

/** The block of a resource: kind, id, name and its fields as the console returned them. */
export function resourceBrief(kind: { readonly id: string; readonly label: string }, item: ResourceItem): Record<string, unknown> {
  return { kind: kind.id, kindLabel: kind.label, id: item.id, name: item.name, fields: item.raw };
}

/** The block of an activity: its state and, when it failed, the reason first. */
export function activityBrief(activity: Activity): Record<string, unknown> {
  const state = activity.state;
  return {
    kind: 'activity',
    id: activity.id,
    type: activity.type,
    description: activity.description,
    state: state.kind,
    ...(state.kind === 'failed' ? { reason: state.reason ?? '(the console gave no reason)' } : {}),
    ...(state.kind === 'running' && state.progression !== undefined ? { progression: state.progression } : {}),
    ...(activity.creationDate ? { created: activity.creationDate } : {}),
    concerns: activity.concernedItems.map((c) => ({ type: c.type, id: c.id })),
    fields: activity.raw,
  };
}

/** The brief as compact JSON, within MAX_BRIEF_CHARS: its fields shortened, then left out, when too long. */
export function briefJson(brief: Readonly<Record<string, unknown>>, redact: (text: string) => string): string {
  for (const limits of [FULL, SHORT]) {
    const text = redact(JSON.stringify(redactFields(brief, limits)));
    if (text.length <= MAX_BRIEF_CHARS) return text;
  }
  const { fields: _fields, ...rest } = brief;
  const text = redact(JSON.stringify({ ...(redactFields(rest, SHORT) as Record<string, unknown>), fields: '(left out: too long)' }));
  return text.length <= MAX_BRIEF_CHARS ? text : text.slice(0, MAX_BRIEF_CHARS);
}

/** The chat query: `@stratus <question>` and the item as a fenced JSON block (a fence no value can close). */
export function askQuery(question: string, brief: Readonly<Record<string, unknown>>, redact: (text: string) => string): string {
  return `@stratus ${question}\n\n${codeFence(briefJson(brief, redact), 'json')}`;
}
