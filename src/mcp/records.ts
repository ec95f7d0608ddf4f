import { formatField, type ResourceCatalog } from '../core/console/catalog/resourceCatalog';
import { redactFields } from '../core/console/itemBrief';
import type { Activity, ResourceItem } from '../core/console/types';

/*
 * What the tools return: compact shapes (ids, names, states) that fit a model's context, and the
 * whole record only on request, always redacted: by key and by look here (redactRecord), by look
 * and by the secrets this process knows in jsonResult (toolKit.ts), which every answer passes,
 * compact fields included. A compact shape is built first and only what it prints is redacted.
 */

/** Cuts of a whole record: strings, list lengths, depth (a model's context, not a dump). */
const RECORD_LIMITS = { depth: 6, strings: 2_000, items: 50 } as const;

/** Objects and arrays made by redactRecord: every string in them is redacted by look already. */
const redactedByLook = new WeakSet<object>();

/** Whether `value` came out of redactRecord (jsonResult then does not scan its strings a second time). */
export function isRedactedByLook(value: unknown): boolean {
  return typeof value === 'object' && value !== null && redactedByLook.has(value);
}

/** Marks `value` as made by redactRecord; returns it. */
export function markRedactedByLook<T>(value: T): T {
  if (typeof value === 'object' && value !== null) redactedByLook.add(value);
  return value;
}

/**
 * A record with secrets removed by key (fields named like a credential, and name/value pairs
 * whose name is one: itemBrief.ts) and by look (recordRedaction.ts). The secrets this process
 * knows (the PAT, the session token, in every encoding) are removed from the answer's whole text
 * by jsonResult, which every record passes.
 */
export function redactRecord(value: unknown): unknown {
  return markRedactedByLook(redactFields(value, RECORD_LIMITS));
}

/** A short text: a name or a state can be as long as the console made it. */
function shortText(value: unknown, max = 200): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  const text = String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export interface CompactResource {
  id: string;
  name: string;
  state?: string;
  summary?: string;
}

/**
 * A listed resource: id, name, its state field (a VM's power state) and the one-line description.
 * Texts are cut here; the answer as a whole is redacted by value once (jsonResult), which covers them.
 */
export function compactResource(catalog: ResourceCatalog, kindId: string, item: ResourceItem): CompactResource {
  const spec = catalog.kind(kindId).presentation;
  const statePath = spec.iconRule?.path;
  const state = statePath ? shortText(valueAt(item.raw, statePath)) : undefined;
  const summary = spec.description.map((field) => formatField(item.raw, field)).filter((v): v is string => v !== undefined).join(' · ');
  return {
    id: item.id,
    name: shortText(item.name) ?? '',
    ...(state !== undefined ? { state } : {}),
    ...(summary ? { summary: shortText(summary) ?? '' } : {}),
  };
}

/** One resource in detail: the compact form, its labelled fields, the actions possible now and, on request, the whole record. */
export function detailedResource(catalog: ResourceCatalog, kindId: string, item: ResourceItem, full: boolean): Record<string, unknown> {
  const fields: Record<string, string> = {};
  for (const d of catalog.present(kindId, item).details) fields[d.label] = shortText(d.value) ?? '';
  return {
    kind: kindId,
    ...compactResource(catalog, kindId, item),
    fields,
    actionsNow: catalog.actionsFor(kindId, item).map((a) => a.id),
    ...(full ? { record: redactRecord(item.raw) } : {}),
  };
}

export interface CompactActivity {
  id: string;
  type: string;
  description: string;
  state: string;
  progression?: number;
  reason?: string;
  result?: string;
  created?: string;
  concerns: Array<{ type: string; id: string }>;
}

/** An activity's id, type, state and what it concerns (redacted by value with the answer, jsonResult). */
export function compactActivity(activity: Activity): CompactActivity {
  const s = activity.state;
  const text = (v: unknown): string => shortText(v) ?? '';
  return {
    id: text(activity.id),
    type: text(activity.type),
    description: text(activity.description),
    state: s.kind,
    ...(s.kind === 'running' && s.progression !== undefined ? { progression: s.progression } : {}),
    ...(s.kind === 'running' && s.status ? { status: text(s.status) } : {}),
    ...(s.kind === 'failed' ? { reason: text(s.reason ?? '(the console gave no reason)') } : {}),
    ...(s.kind === 'completed' && s.result ? { result: text(s.result) } : {}),
    ...(activity.creationDate ? { created: text(activity.creationDate) } : {}),
    concerns: activity.concernedItems.slice(0, 20).map((c) => ({ type: text(c.type), id: text(c.id) })),
  };
}

/** A value at a dotted path of a raw record. */
function valueAt(raw: unknown, path: string): unknown {
  let value: unknown = raw;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
