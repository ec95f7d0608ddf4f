import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { UsageEvent } from './events';
import { BASE_COUNTER_KEYS, BATCH_COUNTER_KEYS, CACHE_COUNTER_KEYS, COUNTER_KEYS, emptyCounters, FEATURE_COUNTER_KEYS, INLINE_COUNTER_KEYS, Ledger, markUnsplit, NEXT_EDIT_COUNTER_KEYS, UNSPLIT_COUNTER_KEYS, type Bucket, type Grain, type RateLimitEvent } from './ledger';
import { isRecord } from '../json';
import { isCount, isSerial, isTime, MAX_COUNTER, validEvent } from './validate';

/**
 * Usage persisted under one directory shared by every VS Code window (globalStorageUri):
 *
 * - `events-<writer>.jsonl`: one append-only file per writer (a window's meter). Each line is
 *   `{"w": writer, "s": seq, "e": event}`; `seq` grows by one per event of that writer. A writer
 *   only ever appends to its own file, one whole line per `appendFile` (O_APPEND).
 * - `usage.json`: the compacted base: folded buckets, the last rate-limit headers, and for each
 *   writer the highest `seq` already folded in (its high-water mark). Replaced atomically
 *   (write a temporary file, then rename).
 * - `usage.lock`: a directory held (mkdir is atomic) while a compaction rewrites the base.
 *
 * Reading = base + every line above its writer's high-water mark, so a line is counted exactly
 * once whether or not it has been compacted yet; compaction never touches a line it did not fold
 * in. A writer deletes its own file only after the base holding it is in place, from its own
 * queue (no append of its own in flight). Partial or corrupt lines are skipped (a partial line
 * can only be a writer's last, and is read once complete); a corrupt base is set aside and
 * counting goes on from the files. Every number is range-checked on read (validate.ts): a line or
 * bucket out of range is skipped, a base whose version or high-water marks are is corrupt.
 */

export const BASE_FILE = 'usage.json';
export const LOCK_DIR = 'usage.lock';
const EVENTS_PREFIX = 'events-';
const EVENTS_SUFFIX = '.jsonl';
/** A lock older than this belongs to a window that died mid-compaction. */
export const STALE_LOCK_MS = 30_000;
/** Another writer's file, fully folded and untouched this long, is removed. */
export const ORPHAN_FILE_MS = 7 * 86_400_000;

interface BaseFile {
  format: 1;
  /** Bumped by every rewrite, so readers can tell the base changed under them. */
  version: number;
  buckets: Bucket[];
  rateLimit?: RateLimitEvent | undefined;
  /** writer id -> highest seq folded into the buckets, and when. */
  hwm: Record<string, { seq: number; at: number }>;
  /** When statistics were last reset, Unix ms. */
  resetAt?: number | undefined;
}

export interface LoadResult {
  ledger: Ledger;
  /** Lines that could not be read (corrupt or partial). */
  skippedLines: number;
  /** True when the base file was unreadable and was set aside. */
  baseRecovered: boolean;
  version: number;
}

/**
 * High-water marks keyed by writer id, with no prototype: a writer id read from disk such as
 * `__proto__` or `constructor` is an ordinary key (it was once a prototype, and a line counted twice).
 */
function marks(): BaseFile['hwm'] {
  return Object.create(null) as BaseFile['hwm'];
}

function emptyBase(): BaseFile {
  return { format: 1, version: 0, buckets: [], hwm: marks() };
}

const GRAINS = new Set<Grain>(['m', 'h', 'd']);

/**
 * A stored bucket, range-checked, or undefined. The first counters are required; the inline
 * completion, cache and next edit ones are absent from buckets written before them (read as 0)
 * and range-checked when present; one without the per-feature counters has its prompts marked
 * unsplit (`markUnsplit`).
 */
function validBucket(v: unknown): Bucket | undefined {
  if (!isRecord(v) || !GRAINS.has(v.g as Grain) || !isTime(v.s) || typeof v.m !== 'string' || !isRecord(v.c)) return undefined;
  const raw = v.c;
  if (!BASE_COUNTER_KEYS.every((k) => isCount(raw[k], MAX_COUNTER))) return undefined;
  if (![...INLINE_COUNTER_KEYS, ...CACHE_COUNTER_KEYS, ...FEATURE_COUNTER_KEYS, ...NEXT_EDIT_COUNTER_KEYS, ...UNSPLIT_COUNTER_KEYS, ...BATCH_COUNTER_KEYS].every((k) => raw[k] === undefined || isCount(raw[k], MAX_COUNTER))) return undefined;
  const c = emptyCounters();
  for (const k of COUNTER_KEYS) {
    const n = raw[k];
    if (typeof n === 'number') c[k] = n;
  }
  markUnsplit(c, raw);
  return { g: v.g as Grain, s: v.s, m: v.m, c };
}

/**
 * The base, range-checked. Its frame (format, version, high-water marks) must be whole, or the
 * base is unreadable and set aside; a bucket or rate-limit record out of range is dropped alone.
 */
function parseBase(text: string): BaseFile | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(raw) || raw.format !== 1 || !isSerial(raw.version) || !Array.isArray(raw.buckets) || !isRecord(raw.hwm)) return undefined;
  const hwm = marks();
  for (const [w, mark] of Object.entries(raw.hwm)) {
    // A mark decides which lines count: a wrong one would count lines twice or never.
    if (!isRecord(mark) || !isSerial(mark.seq) || !isTime(mark.at)) return undefined;
    hwm[w] = { seq: mark.seq, at: mark.at };
  }
  const rateLimit = isRecord(raw.rateLimit) && raw.rateLimit.kind === 'rateLimit' && validEvent(raw.rateLimit) ? (raw.rateLimit as RateLimitEvent) : undefined;
  return {
    format: 1,
    version: raw.version,
    buckets: raw.buckets.map(validBucket).filter((b): b is Bucket => b !== undefined),
    rateLimit,
    hwm,
    resetAt: isTime(raw.resetAt) ? raw.resetAt : undefined,
  };
}

interface Line {
  w: string;
  s: number;
  e: UsageEvent;
}

function parseLine(text: string): Line | undefined {
  try {
    const v: unknown = JSON.parse(text);
    if (isRecord(v) && typeof v.w === 'string' && isSerial(v.s) && v.s > 0 && validEvent(v.e)) return { w: v.w, s: v.s, e: v.e };
  } catch {
    // skipped below
  }
  return undefined;
}

function isErrno(error: unknown, code: string): boolean {
  return isRecord(error) && error.code === code;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
}

export interface UsageStoreOptions {
  dir: string;
  timeZone: string;
  /** Unique per window (per meter); random by default. */
  writerId?: string;
  now?: () => number;
  /** Test seam: runs between reading the base and reading the event files. */
  afterBaseRead?: () => Promise<void>;
}

/** One window's access to the shared usage directory. Calls are serialised by the caller (the meter). */
export class UsageStore {
  readonly dir: string;
  readonly writerId: string;
  private readonly timeZone: string;
  private readonly now: () => number;
  private readonly afterBaseRead: (() => Promise<void>) | undefined;
  private seq = 0;
  private generation = 0;

  constructor(options: UsageStoreOptions) {
    this.dir = options.dir;
    this.timeZone = options.timeZone;
    this.writerId = options.writerId ?? randomUUID();
    this.now = options.now ?? Date.now;
    this.afterBaseRead = options.afterBaseRead;
  }

  /** This writer's current file. A new generation starts after each compaction deletes the old one. */
  private ownFile(): string {
    return path.join(this.dir, `${EVENTS_PREFIX}${this.writerId}.${this.generation}${EVENTS_SUFFIX}`);
  }

  /** Appends events as whole lines to this writer's own file. */
  async append(events: readonly UsageEvent[]): Promise<void> {
    if (events.length === 0) return;
    await fs.mkdir(this.dir, { recursive: true });
    const text = events.map((e) => JSON.stringify({ w: this.writerId, s: ++this.seq, e }) + '\n').join('');
    await fs.appendFile(this.ownFile(), text, 'utf8');
  }

  private async readBase(): Promise<{ base: BaseFile; corrupt: boolean }> {
    const text = await readText(path.join(this.dir, BASE_FILE));
    if (text === undefined) return { base: emptyBase(), corrupt: false };
    const base = parseBase(text);
    return base ? { base, corrupt: false } : { base: emptyBase(), corrupt: true };
  }

  private async eventFiles(): Promise<string[]> {
    try {
      return (await fs.readdir(this.dir)).filter((f) => f.startsWith(EVENTS_PREFIX) && f.endsWith(EVENTS_SUFFIX));
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return [];
      throw error;
    }
  }

  /** Every complete line of every writer's file, with the number of unreadable lines. */
  private async readLines(): Promise<{ files: Map<string, Line[]>; skipped: number }> {
    const files = new Map<string, Line[]>();
    let skipped = 0;
    for (const name of await this.eventFiles()) {
      const text = await readText(path.join(this.dir, name));
      if (text === undefined) continue;
      const lines: Line[] = [];
      for (const raw of text.split('\n')) {
        if (raw.trim() === '') continue;
        const line = parseLine(raw);
        if (line) lines.push(line);
        else skipped++;
      }
      files.set(name, lines);
    }
    return { files, skipped };
  }

  private merge(base: BaseFile, files: Map<string, Line[]>): Ledger {
    const ledger = Ledger.from(base.buckets, this.timeZone, base.rateLimit);
    for (const lines of files.values()) {
      for (const line of lines) {
        if (line.s > (base.hwm[line.w]?.seq ?? 0)) ledger.add(line.e);
      }
    }
    return ledger;
  }

  /**
   * Reads the merged usage of every window. If a compaction replaced the base while the files
   * were read, reads again (a writer's file may have been folded in and deleted meanwhile).
   */
  async load(): Promise<LoadResult> {
    for (let attempt = 0; ; attempt++) {
      const { base, corrupt } = await this.readBase();
      await this.afterBaseRead?.();
      const { files, skipped } = await this.readLines();
      const again = await this.readBase();
      if (again.base.version === base.version || attempt >= 4) {
        const ledger = this.merge(base, files);
        ledger.fold(this.now());
        return { ledger, skippedLines: skipped, baseRecovered: corrupt, version: base.version };
      }
    }
  }

  private async lock(): Promise<boolean> {
    const dir = path.join(this.dir, LOCK_DIR);
    await fs.mkdir(this.dir, { recursive: true });
    try {
      await fs.mkdir(dir);
      return true;
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) throw error;
    }
    try {
      const stat = await fs.stat(dir);
      // File times are real time: compare with the real clock, not the injected one.
      if (Date.now() - stat.mtimeMs > STALE_LOCK_MS) {
        await fs.rm(dir, { recursive: true, force: true });
        await fs.mkdir(dir);
        return true;
      }
    } catch {
      // Someone else took or released it meanwhile.
    }
    return false;
  }

  private async unlock(): Promise<void> {
    await fs.rm(path.join(this.dir, LOCK_DIR), { recursive: true, force: true });
  }

  private async writeBase(base: BaseFile): Promise<void> {
    const tmp = path.join(this.dir, `${BASE_FILE}.${this.writerId}.tmp`);
    await fs.writeFile(tmp, JSON.stringify(base), 'utf8');
    await fs.rename(tmp, path.join(this.dir, BASE_FILE));
  }

  /**
   * Folds every line not yet in the base into it, then deletes this writer's own (now folded)
   * file. Returns false when another window holds the lock (it is compacting: nothing to do).
   * `reset` empties the statistics for every window instead of folding.
   */
  async compact(options: { reset?: boolean } = {}): Promise<boolean> {
    if (!(await this.lock())) return false;
    try {
      const { base, corrupt } = await this.readBase();
      if (corrupt) {
        const text = await readText(path.join(this.dir, BASE_FILE));
        if (text !== undefined) await fs.writeFile(path.join(this.dir, `${BASE_FILE}.corrupt-${this.now()}`), text, 'utf8');
      }
      const { files } = await this.readLines();
      const now = this.now();
      const ledger = options.reset ? new Ledger(this.timeZone) : this.merge(base, files);
      ledger.fold(now);
      const hwm = Object.assign(marks(), base.hwm);
      for (const lines of files.values()) {
        for (const line of lines) {
          if (line.s > (hwm[line.w]?.seq ?? 0)) hwm[line.w] = { seq: line.s, at: now };
        }
      }
      const present = new Set<string>();
      for (const lines of files.values()) for (const l of lines) present.add(l.w);
      // A mark for a writer whose file is gone is kept a while (a late reader may still see the file).
      for (const [w, mark] of Object.entries(hwm)) {
        if (!present.has(w) && now - mark.at > ORPHAN_FILE_MS) delete hwm[w];
      }
      await this.writeBase({
        format: 1,
        version: base.version + 1,
        buckets: ledger.all(),
        rateLimit: options.reset ? undefined : ledger.rateLimit,
        hwm,
        resetAt: options.reset ? now : base.resetAt,
      });
      // Own file: folded and no append of ours in flight (the meter serialises): start a new one.
      const own = path.basename(this.ownFile());
      if (files.has(own)) {
        this.generation++;
        await fs.rm(path.join(this.dir, own), { force: true });
      }
      // Files of windows long gone, fully folded.
      for (const name of files.keys()) {
        if (name === own) continue;
        const full = path.join(this.dir, name);
        const stat = await fs.stat(full).catch(() => undefined);
        if (stat && Date.now() - stat.mtimeMs > ORPHAN_FILE_MS) await fs.rm(full, { force: true });
      }
      return true;
    } finally {
      await this.unlock();
    }
  }
}
