import { ValidationError } from '../../errors';
import type { ActionSpec, InputField } from './kindSpecs';
import { at, isRecord } from '../../json';
import type { ResourceItem } from '../types';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function coerce(field: InputField, value: unknown): string | number | boolean {
  const bad = (why: string): never => {
    throw new ValidationError(`${field.label} ${why}`, field.key);
  };
  switch (field.type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      return bad('must be true or false');
    case 'integer': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n)) return bad('must be a whole number');
      if (field.min !== undefined && n < field.min) bad(`must be at least ${field.min}`);
      if (field.max !== undefined && n > field.max) bad(`must be at most ${field.max}`);
      return n * (field.scale ?? 1);
    }
    case 'email':
    case 'string': {
      if (typeof value !== 'string' && typeof value !== 'number') return bad('must be text');
      const s = String(value).trim();
      if (field.type === 'email' && !EMAIL.test(s)) bad('must be an email address');
      return s;
    }
  }
}

/** Sets a dotted path in a plain object, creating intermediate objects. */
function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (isRecord(next)) node = next;
    else {
      const created: Record<string, unknown> = {};
      node[key] = created;
      node = created;
    }
  }
  node[keys[keys.length - 1] ?? path] = value;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Whether the action applies to this resource (e.g. "Power On" only when it is stopped). */
export function isAvailable(action: ActionSpec, item: ResourceItem | undefined): boolean {
  if (!action.when || action.when.length === 0) return true;
  if (!item) return false;
  return action.when.every((c) => {
    const raw = at(item.raw, c.path);
    const value = raw === undefined || raw === null ? undefined : String(raw);
    if (c.equals !== undefined && value !== c.equals) return false;
    if (c.notEquals !== undefined && value === c.notEquals) return false;
    return true;
  });
}

/** Starting values for an input flow: defaults for a create, current values for a modify. */
export function initialInput(action: ActionSpec, target?: ResourceItem): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const field of action.fields ?? []) {
    const current = target ? at(target.raw, field.wire) : undefined;
    if (typeof current === 'number') out[field.key] = current / (field.scale ?? 1);
    else if (typeof current === 'string' || typeof current === 'boolean') out[field.key] = current;
    else if (!target && field.default !== undefined) out[field.key] = field.default;
  }
  return out;
}

/**
 * Whether `value` (typed, picked or given by a model) is `initial` unchanged: `"1.5"` is 1.5,
 * `" web "` is `"web"`, `"true"` is true.
 */
export function sameInputValue(initial: unknown, value: unknown): boolean {
  if (initial === undefined || initial === null || value === undefined || value === null) return initial === value;
  const a = String(initial).trim();
  const b = String(value).trim();
  if (a === b) return true;
  if (typeof initial === 'number' || typeof value === 'number') {
    return a !== '' && b !== '' && Number.isFinite(Number(a)) && Number(a) === Number(b);
  }
  return false;
}

/**
 * The entries of `values` that differ from `initial` (the prefilled current values of a modify,
 * or a create's defaults): a write sends only what the user changed, so an untouched value (a
 * VM's 1.5 GiB of memory where a new value must be whole GiB) is never checked nor sent back.
 */
export function changedInput<T>(initial: Readonly<Record<string, unknown>>, values: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!Object.prototype.hasOwnProperty.call(initial, key) || !sameInputValue(initial[key], value)) out[key] = value;
  }
  return out;
}

/**
 * Builds the request body of an action from the user's input. Creates fill in defaults and
 * require required fields; modifies send only what was given (and refuse an empty change).
 */
export function buildBody(
  action: ActionSpec,
  input: Readonly<Record<string, unknown>> | undefined,
  target: ResourceItem | undefined,
  idInPath: boolean,
): Record<string, unknown> | undefined {
  const fields = action.fields ?? [];
  const known = new Set(fields.map((f) => f.key));
  const unknown = Object.keys(input ?? {}).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new ValidationError(`Unknown input for ${action.label}: ${unknown.join(', ')}`, unknown[0] ?? '');
  }
  const body: Record<string, unknown> = {};
  let given = 0;
  for (const field of fields) {
    let value = input?.[field.key];
    if (isBlank(value) && action.target === 'collection') value = field.default;
    if (isBlank(value)) {
      if (field.required) throw new ValidationError(`${field.label} is required`, field.key);
      continue;
    }
    setAt(body, field.wire, coerce(field, value));
    given++;
  }
  if (fields.length > 0 && given === 0 && action.target === 'item') {
    throw new ValidationError(`Nothing to change: give at least one of ${fields.map((f) => f.label).join(', ')}`, fields[0]?.key ?? '');
  }
  Object.assign(body, action.body);
  if (!idInPath && target && action.idInBody) {
    for (const [wire, path] of Object.entries(action.idInBody)) {
      const value = path === 'id' ? target.id : at(target.raw, path);
      // Production's power body names the VM and its datacenter: without one, refuse before sending.
      if (value === undefined || value === null || value === '') throw new ValidationError(`${action.label} needs the resource's ${path}, which it does not have`, wire);
      setAt(body, wire, value);
    }
  }
  return Object.keys(body).length > 0 || action.method !== 'DELETE' ? body : undefined;
}
