// The fault matrix's machinery: one sandbox per profile on an installed fake clock (the client's
// timeouts, retries and follow delays and the sandbox's latency, pacing and activity steps all move
// only when the harness fires the next timer), a driver that fires timers only once real I/O has
// gone quiet, and the recorder that prints the matrix.
import * as FakeTimers from '@sinonjs/fake-timers';
import type { FetchLike } from '../../../src/core/http/types';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';

export type Clock = ReturnType<typeof FakeTimers.install>;

/** Real timers, captured before any fake clock is installed: only used to let real I/O happen. */
const realSetTimeout = globalThis.setTimeout;
const realSetImmediate = globalThis.setImmediate;

function realTurn(ms: number): Promise<void> {
  return new Promise((resolve) => realSetTimeout(() => realSetImmediate(resolve), ms));
}

export interface World {
  readonly profile: SandboxProfile;
  readonly sandbox: Sandbox;
  readonly clock: Clock;
  /** A fetch engine that counts what it does, so the driver sees client-side I/O. */
  readonly fetch: FetchLike;
  /** Client-side progress counter (features bump it when an event arrives). */
  progress: number;
  /** Every bearer token the clients sent (the API key, and each JWT issued from the PAT). */
  readonly bearers: Set<string>;
}

/** Installs a fake clock (timers, Date, performance) and starts a sandbox on it. */
export async function startWorld(profile: SandboxProfile, options: { now?: string; jwtLifetimeSeconds?: number } = {}): Promise<World> {
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'], now: Date.parse(options.now ?? '2026-03-02T09:00:00Z') });
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({ port: 0, profile, timers: clock, activityStepMs: 1_000, ...(options.jwtLifetimeSeconds !== undefined ? { jwtLifetimeSeconds: options.jwtLifetimeSeconds } : {}) });
  } catch (error) {
    clock.uninstall();
    throw error;
  }
  const world: World = {
    profile,
    sandbox,
    clock,
    progress: 0,
    bearers: new Set(),
    fetch: async (url, init) => {
      world.progress += 1;
      const auth = (init.headers as Record<string, string> | undefined)?.authorization;
      if (auth?.startsWith('Bearer ')) world.bearers.add(auth.slice('Bearer '.length));
      try {
        return await globalThis.fetch(url, init);
      } finally {
        world.progress += 1;
      }
    },
  };
  return world;
}

export async function stopWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  try {
    await world.sandbox.close();
  } finally {
    world.clock.uninstall();
  }
}

interface FakeTimer {
  callAt: number;
  func: unknown;
}

/**
 * The runtime's fetch (undici) schedules its own housekeeping on the global timers, so on the fake
 * clock too: its 500 ms tick and its keep-alive parser timeout. They are fired along the way, never
 * waited for, and a case whose only timers are these is hung.
 */
const ENGINE_TIMERS = new Set(['onTick', 'onParserTimeout']);

/** Pending timers of the code under test (the client, the sandbox, the feature), soonest first. */
export function ownTimers(clock: Clock): FakeTimer[] {
  const table = (clock as unknown as { timers?: Record<string, FakeTimer> | Map<string, FakeTimer> }).timers;
  const all: FakeTimer[] = table instanceof Map ? [...table.values()] : Object.values(table ?? {});
  return all.filter((t) => !(typeof t.func === 'function' && ENGINE_TIMERS.has(t.func.name))).sort((a, b) => a.callAt - b.callAt);
}

/** Everything that changes when real I/O makes progress. */
function signature(world: World): string {
  const records = world.sandbox.control.requests();
  let s = `${ownTimers(world.clock).length}|${world.progress}|${records.length}`;
  for (const r of records) s += `|${r.status ?? '-'}:${r.chunksSent ?? 0}:${r.clientClosedEarly ? 1 : 0}`;
  return s;
}

/** Waits until nothing changes for a few real turns: pending I/O has been delivered. */
export async function quiet(world: World): Promise<void> {
  let last = signature(world);
  for (let same = 0; same < 3; ) {
    await realTurn(1);
    const now = signature(world);
    if (now === last) same += 1;
    else {
      same = 0;
      last = now;
    }
  }
}

export interface Driven<T> {
  value?: T;
  error?: unknown;
  settled: boolean;
  /** Fake time it took. */
  elapsedMs: number;
}

/**
 * Runs `start()` and fires fake timers one at a time (each after real I/O went quiet) until it
 * settles. Fails (as a hang) when nothing is pending at all, or when `boundMs` of fake time pass.
 */
export async function drive<T>(world: World, start: () => Promise<T>, boundMs: number): Promise<Driven<T>> {
  const began = world.clock.now;
  const out: Driven<T> = { settled: false, elapsedMs: 0 };
  const promise = start().then(
    (value) => {
      out.value = value;
      out.settled = true;
    },
    (error: unknown) => {
      out.error = error;
      out.settled = true;
    },
  );
  for (;;) {
    await quiet(world);
    if (out.settled) break;
    const next = ownTimers(world.clock)[0];
    if (next === undefined) throw new Error('hang: no timer pending and no I/O in progress');
    if (next.callAt - began > boundMs) throw new Error(`not settled within ${boundMs} ms of fake time`);
    await world.clock.tickAsync(Math.max(0, next.callAt - world.clock.now));
  }
  await promise;
  out.elapsedMs = world.clock.now - began;
  return out;
}

/** Fires every pending timer (quietly): what a finished case left behind runs out. */
export async function drain(world: World, maxTimers = 200): Promise<void> {
  for (let i = 0; i < maxTimers; i++) {
    await quiet(world);
    const next = ownTimers(world.clock)[0];
    if (next === undefined) return;
    await world.clock.tickAsync(Math.max(0, next.callAt - world.clock.now));
  }
}

// The matrix recorder.

export interface CellResult {
  feature: string;
  fault: string;
  profile: string;
  /** 'pass' | 'fail' | 'n/a' */
  status: 'pass' | 'fail' | 'n/a';
  note?: string;
}

export class MatrixRecorder {
  readonly cells: CellResult[] = [];

  record(cell: CellResult): void {
    this.cells.push(cell);
  }

  /** features x faults: `passed/cases` per cell (both profiles), `n/a` where it does not apply. */
  render(features: readonly string[], faults: readonly string[]): string {
    const width = Math.max(...features.map((f) => f.length), 7);
    const widths = faults.map((f) => Math.max(5, f.length));
    const lines = [`${'feature'.padEnd(width)} | ${faults.map((f, i) => f.padStart(widths[i] ?? 5)).join(' | ')}`];
    for (const feature of features) {
      const row = faults.map((fault, i) => {
        const cells = this.cells.filter((c) => c.feature === feature && c.fault === fault);
        const w = widths[i] ?? 5;
        if (cells.length === 0) return '-'.padStart(w);
        if (cells.every((c) => c.status === 'n/a')) return 'n/a'.padStart(w);
        const cases = cells.filter((c) => c.status !== 'n/a');
        return `${cases.filter((c) => c.status === 'pass').length}/${cases.length}`.padStart(w);
      });
      lines.push(`${feature.padEnd(width)} | ${row.join(' | ')}`);
    }
    const cases = this.cells.filter((c) => c.status !== 'n/a');
    const passed = cases.filter((c) => c.status === 'pass').length;
    lines.push(`cases ${cases.length}, passed ${passed}, failed ${cases.length - passed}, n/a ${this.cells.length - cases.length}`);
    const reasons = new Map<string, Set<string>>();
    for (const c of this.cells) if (c.status === 'n/a' && c.note) reasons.set(c.fault, (reasons.get(c.fault) ?? new Set()).add(c.note));
    for (const [fault, notes] of reasons) lines.push(`n/a ${fault}: ${[...notes].join('; ')}`);
    return lines.join('\n');
  }
}
