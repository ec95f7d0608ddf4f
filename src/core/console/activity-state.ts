import { isRecord, numOrNumericString, nonBlankText, type JsonRecord } from '../json';
import type { ActivityState } from './types';

type Kind = ActivityState['kind'];

// Names seen for the four states, and close synonyms, so a renamed state never hangs a follower.
const NAMES: Readonly<Record<string, Kind>> = {
  waiting: 'waiting',
  pending: 'waiting',
  queued: 'waiting',
  running: 'running',
  inprogress: 'running',
  in_progress: 'running',
  completed: 'completed',
  succeeded: 'completed',
  success: 'completed',
  done: 'completed',
  failed: 'failed',
  error: 'failed',
  cancelled: 'failed',
  canceled: 'failed',
};

function kindOf(name: unknown): Kind | undefined {
  return typeof name === 'string' ? NAMES[name.trim().toLowerCase()] : undefined;
}

/** Builds the normalised state from the fields of its form, omitting absent ones. */
function build(kind: Kind, f: JsonRecord): ActivityState {
  const pick = <T extends object>(obj: T): T =>
    Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
  switch (kind) {
    case 'waiting':
      return { kind };
    case 'running':
      return pick({ kind, status: nonBlankText(f.status), progression: numOrNumericString(f.progression ?? f.progress), startDate: nonBlankText(f.startDate) });
    case 'completed':
      return pick({ kind, result: nonBlankText(f.result), startDate: nonBlankText(f.startDate), stopDate: nonBlankText(f.stopDate) });
    case 'failed':
      return pick({ kind, reason: nonBlankText(f.reason ?? f.error ?? f.message), startDate: nonBlankText(f.startDate), stopDate: nonBlankText(f.stopDate) });
  }
}

/**
 * Reads an activity `state` in any of the forms met:
 * - keyed by the state name, exactly one key (field-notes.md): `{"running": {"progression": 40}}`;
 * - discriminated: `{"name"|"state"|"kind": "running", ...}`, or a bare string `"running"` with the
 *   fields on `holder` (the activity);
 * - flat, told apart by its fields (the contract's table; the sandbox's contract profile):
 *   `result` -> completed, `reason` -> failed, `status`/`progression`/`startDate` -> running, `{}` ->
 *   waiting. A `status` that is exactly one of the four state names wins over the field test
 *   (synonyms are not trusted there: a running state's `status` is free text).
 * Anything else is treated as running (not terminal), so following continues rather than crashing.
 */
export function normaliseState(raw: unknown, holder: JsonRecord = {}): ActivityState {
  if (typeof raw === 'string') return build(kindOf(raw) ?? 'running', holder);
  if (!isRecord(raw)) return { kind: 'waiting' };
  const keys = Object.keys(raw);
  if (keys.length === 1) {
    const key = keys[0] ?? '';
    const kind = kindOf(key);
    const value = raw[key];
    if (kind && (isRecord(value) || value === null)) return build(kind, isRecord(value) ? value : {});
  }
  for (const field of ['name', 'state', 'kind']) {
    const kind = kindOf(raw[field]);
    if (kind) return build(kind, raw);
  }
  if (raw.result !== undefined && raw.result !== null) return build('completed', raw);
  if (raw.reason !== undefined && raw.reason !== null) return build('failed', raw);
  const status = typeof raw.status === 'string' ? raw.status.trim().toLowerCase() : undefined;
  if (status === 'waiting' || status === 'running' || status === 'completed' || status === 'failed') {
    return build(status, raw);
  }
  if (keys.length === 0) return { kind: 'waiting' };
  return build('running', raw);
}
