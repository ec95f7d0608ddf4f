// Pure (no `vscode` import): unit-tested in plain Node on a fake clock.
import { normaliseState } from './readActivities';
import { ActivityFailedError, ActivityStillRunningError } from '../errors';
import type { Activity, FollowOptions } from '../types';
import { isStratusError } from '../../errors';
import { isRecord as isObject } from '../../json';

/**
 * Whether the console's normaliser knows `name` as a state (or a synonym of one). It maps an
 * unknown name to "running" so that following never crashes; asked twice, once with a `result`
 * and once with a `reason` beside the name, a known name gives the same state both times while an
 * unknown one falls through to the fields (completed, then failed). So the table of names stays in
 * one place (src/core/console/activities/readActivities.ts).
 */
function knownStateName(name: string): boolean {
  return normaliseState({ state: name, result: '?' }).kind === normaliseState({ state: name, reason: '?' }).kind;
}

/**
 * The state name an activity declares when it is not one Stratus knows (the normalised state then
 * says "running" only because following must go on): `"paused"`, `{"suspended": {...}}`,
 * `{"name": "migrating"}`. Undefined for every known form, including the contract's flat form
 * (`status` is free text there) and an activity without a state (waiting).
 */
export function unknownStateName(activity: Activity): string | undefined {
  if (activity.state.kind !== 'running') return undefined;
  const raw = activity.raw.state;
  if (typeof raw === 'string') return knownStateName(raw) ? undefined : raw.trim() || raw;
  if (!isObject(raw)) return undefined;
  for (const field of ['name', 'state', 'kind']) {
    const value = raw[field];
    if (typeof value === 'string') return knownStateName(value) ? undefined : value;
  }
  const keys = Object.keys(raw);
  if (keys.length === 1) {
    const key = keys[0] ?? '';
    const value = raw[key];
    if ((isObject(value) || value === null) && !knownStateName(key)) return key;
    if (knownStateName(key)) return undefined;
  }
  // The contract's flat running form.
  if (typeof raw.status === 'string' || raw.progression !== undefined || raw.progress !== undefined || raw.startDate !== undefined) return undefined;
  return keys.length === 0 ? undefined : JSON.stringify(raw).slice(0, 80);
}

/** One line of an activity's state for the model (and the chat's progress line). */
export function stateText(activity: Activity): string {
  const unknown = unknownStateName(activity);
  if (unknown !== undefined) return `in state "${unknown}", which Stratus does not know (not known to be running or ended)`;
  const s = activity.state;
  switch (s.kind) {
    case 'waiting':
      return 'waiting';
    case 'running':
      return `running${s.progression !== undefined ? ` ${Math.round(s.progression)}%` : ''}${s.status ? ` (${s.status})` : ''}`;
    case 'completed':
      return 'completed';
    case 'failed':
      return `failed${s.reason ? `: ${s.reason}` : ''}`;
  }
}

/** `30 min`, `45 s`: how long following went on before its deadline. */
export function waitedText(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

export type ToolFollowOutcome =
  | { readonly status: 'completed'; readonly activity: Activity }
  /** Following ended without the activity completing: `text` says how, for the model. */
  | { readonly status: 'ended'; readonly text: string };

export interface ToolFollowOptions {
  readonly signal: AbortSignal;
  /** Overall deadline (`stratus.console.activityTimeoutMinutes`, as the tree's writes use). */
  readonly timeoutMs: number;
  readonly report: (text: string) => void;
}

/**
 * Follows the activity of a chat tool's write until it ends, the deadline passes, or the turn is
 * cancelled. Only completion resolves as `completed`; anything else is told as it is, an unknown
 * state by its name. Errors other than these (the console unreachable) are rethrown.
 */
export async function followForTool(
  follow: (id: string, options: FollowOptions) => Promise<Activity>,
  activityId: string,
  title: string,
  options: ToolFollowOptions,
): Promise<ToolFollowOutcome> {
  try {
    const activity = await follow(activityId, {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      onUpdate: (a) => options.report(`${title}: ${stateText(a)}`),
    });
    return { status: 'completed', activity };
  } catch (error) {
    if (error instanceof ActivityFailedError) {
      return { status: 'ended', text: `${title} FAILED. Activity ${activityId} ended in state failed: ${error.reason ?? 'no reason given'}. Nothing more was done.` };
    }
    if (error instanceof ActivityStillRunningError) {
      const last = error.activity;
      const unknown = last ? unknownStateName(last) : undefined;
      const now = unknown !== undefined
        ? `its last state, "${unknown}", is one Stratus does not know, so whether it is still running or has ended is unknown`
        : last ? `it is still ${stateText(last)} on the server` : 'its state could not be read in that time';
      return { status: 'ended', text: `${title}: stopped following activity ${activityId} after ${waitedText(options.timeoutMs)} (stratus.console.activityTimeoutMinutes): ${now}. Its outcome is not known yet; the Activities view shows its state. Do not start it again.` };
    }
    if (isStratusError(error) && error.kind === 'cancelled') {
      return { status: 'ended', text: `${title}: stopped waiting (cancelled). Activity ${activityId} continues on the server; its state is in the Activities view.` };
    }
    throw error;
  }
}
