import { codeFence } from '../markdown';
import { FULL_LIMITS, redactFields, SHORT_LIMITS } from './recordRedaction';
import type { Activity, ResourceItem } from './types';

/*
 * A cloud resource or activity as a compact JSON block for a chat question ("Ask @stratus"): its
 * id, kind, fields and, for a failed activity, its reason. Secrets are replaced by the one redactor
 * of console records (recordRedaction.ts: by name and by value); the caller also passes the text
 * through the one redactor of known secrets and their encodings, as every log line and error is.
 */

export { isSecretName, redactFields } from './recordRedaction';

/** What the block holds at most, so a chat question stays small. */
export const MAX_BRIEF_CHARS = 4_000;

const FULL = FULL_LIMITS;
const SHORT = SHORT_LIMITS;

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
