import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock';
import type { SandboxProfile } from '../types';

/**
 * Activities: every console write creates one. Timeline, in steps of `stepMs` (activityStepMs x
 * slow factor, fixed when the activity is created), read lazily from the sandbox clock:
 *   [0, 1 step)         waiting
 *   [1 step, 5 steps)   running, progression 20, 40, 60, 80 (one value per step), a status text
 *   >= 5 steps          completed (result = id of the created/changed/deleted resource; the change
 *                       is applied at that moment) or failed (reason; nothing changes)
 * No timers: activities are advanced ("ticked") at the start of every console request.
 *
 * State shapes (the contract says `state` is "one of the state forms" without saying how the form
 * is told apart):
 * - contract profile: the state object IS the form, flat, told apart by its fields:
 *   waiting `{}`, running `{status, startDate, progression}`, failed `{startDate, stopDate, reason}`,
 *   completed `{startDate, stopDate, result}` (result => completed, reason => failed,
 *   progression => running, empty => waiting);
 * - production profile: keyed by the state name, exactly one key (field-notes.md), e.g.
 *   `{"running": {"status": "...", "startDate": "...", "progression": 40}}`.
 */

export type ActivityType = 'ComputeActivity' | 'IAMActivity';
export type ApplyOutcome = { ok: true; result: string } | { ok: false; reason: string };

export interface NewActivity {
  description: string;
  type: ActivityType;
  concernedItems: Array<{ type: string; id: string }>;
  initiator: string;
  tenantId: string;
  apply: () => ApplyOutcome;
}

interface Activity extends NewActivity {
  id: string;
  createdMs: number;
  stepMs: number;
  forcedFailure: string | null;
  hideFirstRead: boolean;
  outcome: ApplyOutcome | null;
}

export type ActivityStateName = 'waiting' | 'running' | 'failed' | 'completed';

const RUNNING_STEPS = 4;
const STATUS_TEXT = ['Preparing', 'Applying changes', 'Verifying', 'Finalizing'];
const MAX_ACTIVITIES = 10_000;
export const DEFAULT_FAILURE_REASON = 'Sandbox: the operation failed (injected fault).';

export class ActivityEngine {
  private activities = new Map<string, Activity>();
  private pending = new Set<Activity>();
  slowFactor = 1;
  failNext = 0;
  failAll = false;
  failReason: string | null = null;
  firstRead404: boolean;

  constructor(
    private readonly clock: Clock,
    readonly baseStepMs: number,
    private readonly profile: SandboxProfile,
  ) {
    this.firstRead404 = profile === 'production';
  }

  reset(): void {
    this.activities.clear();
    this.pending.clear();
    this.slowFactor = 1;
    this.failNext = 0;
    this.failAll = false;
    this.failReason = null;
    this.firstRead404 = this.profile === 'production';
  }

  get stepMs(): number {
    return this.baseStepMs * this.slowFactor;
  }

  get size(): number {
    return this.activities.size;
  }

  create(spec: NewActivity): string {
    let forcedFailure: string | null = null;
    if (this.failAll || this.failNext > 0) {
      forcedFailure = this.failReason ?? DEFAULT_FAILURE_REASON;
      if (!this.failAll) this.failNext -= 1;
    }
    const activity: Activity = {
      ...spec,
      id: randomUUID(),
      createdMs: this.clock.now(),
      stepMs: this.stepMs,
      forcedFailure,
      hideFirstRead: this.firstRead404,
      outcome: null,
    };
    this.activities.set(activity.id, activity);
    this.pending.add(activity);
    this.trim();
    return activity.id;
  }

  /** Applies every activity whose time has come. */
  tick(): void {
    const now = this.clock.now();
    for (const activity of this.pending) {
      if (now - activity.createdMs < (RUNNING_STEPS + 1) * activity.stepMs) continue;
      activity.outcome = activity.forcedFailure !== null ? { ok: false, reason: activity.forcedFailure } : activity.apply();
      this.pending.delete(activity);
    }
  }

  /** A read by id; `undefined` means 404 (unknown id, or the eventual-consistency first read). */
  read(id: string): Activity | undefined {
    const activity = this.activities.get(id);
    if (!activity) return undefined;
    if (activity.hideFirstRead) {
      activity.hideFirstRead = false;
      return undefined;
    }
    return activity;
  }

  list(): Activity[] {
    return [...this.activities.values()].reverse();
  }

  stateName(activity: Activity): ActivityStateName {
    if (activity.outcome) return activity.outcome.ok ? 'completed' : 'failed';
    return this.clock.now() - activity.createdMs < activity.stepMs ? 'waiting' : 'running';
  }

  view(activity: Activity): Record<string, unknown> {
    const name = this.stateName(activity);
    const startDate = this.clock.iso(activity.createdMs + activity.stepMs);
    const stopDate = this.clock.iso(activity.createdMs + (RUNNING_STEPS + 1) * activity.stepMs);
    let body: Record<string, unknown> = {};
    if (name === 'running') {
      const step = Math.min(RUNNING_STEPS - 1, Math.floor((this.clock.now() - activity.createdMs - activity.stepMs) / Math.max(1, activity.stepMs)));
      body = { status: `${STATUS_TEXT[step] ?? 'Running'}: ${activity.description}`, startDate, progression: (100 / (RUNNING_STEPS + 1)) * (step + 1) };
    } else if (activity.outcome?.ok === true) {
      body = { startDate, stopDate, result: activity.outcome.result };
    } else if (activity.outcome?.ok === false) {
      body = { startDate, stopDate, reason: activity.outcome.reason };
    }
    const view: Record<string, unknown> = {
      id: activity.id,
      tenantId: activity.tenantId,
      description: activity.description,
      type: activity.type,
      tags: [],
      initiator: activity.initiator,
      creationDate: this.clock.iso(activity.createdMs),
      concernedItems: activity.concernedItems.map((item) => ({ ...item })),
      state: this.profile === 'production' ? { [name]: body } : body,
      operationType: 'write',
    };
    if (this.profile === 'production') view.lastUpdateDate = this.clock.iso();
    return view;
  }

  private trim(): void {
    if (this.activities.size <= MAX_ACTIVITIES) return;
    for (const activity of this.activities.values()) {
      if (this.activities.size <= MAX_ACTIVITIES) break;
      if (!this.pending.has(activity)) this.activities.delete(activity.id);
    }
  }
}
