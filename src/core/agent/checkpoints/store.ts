import { hashBytes, type Before, type FileCheckpoint, type TurnCheckpoint } from './types';

/**
 * Checkpoints of the last N turns kept across a window reload (workspace storage), within a size
 * cap, oldest pruned first. The stored form is JSON `{ "version": 1, "turns": [...] }` with file
 * contents in base64; every value read back is type- and range-checked (and each content against
 * its hash), and a store that fails any check is set aside whole and replaced by an empty history:
 * never fatal, never half-trusted.
 */

export const CHECKPOINT_FORMAT_VERSION = 1;

export interface CheckpointLimits {
  /** Turns kept (default 10). */
  readonly maxTurns: number;
  /** Size of the serialised store in characters (default 16 MiB). */
  readonly maxChars: number;
}

export const DEFAULT_CHECKPOINT_LIMITS: CheckpointLimits = { maxTurns: 10, maxChars: 16 * 1024 * 1024 };

/** Where the serialised store lives (Memento or a file in workspace storage). */
export interface CheckpointStorage {
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
  /** Keeps a corrupt store aside (for a bug report) and out of the way. */
  setAside(text: string, reason: string): Promise<void>;
}

const HASH = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_TURNS_READ = 1000;
const MAX_FILES_PER_TURN = 10_000;
const MAX_SIZE = 2 ** 40;
const LATEST_TIME = 8.64e15; // the largest valid Date

function encodeBefore(before: Before): unknown {
  switch (before.kind) {
    case 'missing':
      return { kind: 'missing' };
    case 'content':
      return { kind: 'content', hash: before.hash, base64: Buffer.from(before.bytes).toString('base64') };
    case 'too-large':
      return { kind: 'too-large', hash: before.hash, size: before.size };
  }
}

function encodeTurn(turn: TurnCheckpoint): unknown {
  return { turnId: turn.turnId, createdAt: turn.createdAt, files: turn.files.map((f) => ({ path: f.path, before: encodeBefore(f.before), afterHash: f.afterHash })) };
}

export function serialiseCheckpoints(turns: readonly TurnCheckpoint[]): string {
  return JSON.stringify({ version: CHECKPOINT_FORMAT_VERSION, turns: turns.map(encodeTurn) });
}

class Invalid extends Error {}

function fail(reason: string): never {
  throw new Invalid(reason);
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${what} is not an object`);
  return value as Record<string, unknown>;
}

function text(value: unknown, what: string, max: number): string {
  if (typeof value !== 'string' || value === '' || value.length > max || value.includes('\0')) fail(`${what} is not a valid string`);
  return value;
}

function hash(value: unknown, what: string): string {
  if (typeof value !== 'string' || !HASH.test(value)) fail(`${what} is not a SHA-256 hash`);
  return value;
}

function decodeBefore(value: unknown, what: string): Before {
  const v = record(value, what);
  switch (v.kind) {
    case 'missing':
      return { kind: 'missing' };
    case 'content': {
      const h = hash(v.hash, `${what}.hash`);
      if (typeof v.base64 !== 'string' || !BASE64.test(v.base64)) fail(`${what}.base64 is not base64`);
      const bytes = new Uint8Array(Buffer.from(v.base64, 'base64'));
      if (hashBytes(bytes) !== h) fail(`${what}: content does not match its hash`);
      return { kind: 'content', bytes, hash: h };
    }
    case 'too-large': {
      const size = v.size;
      if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > MAX_SIZE) fail(`${what}.size is out of range`);
      return { kind: 'too-large', size, hash: hash(v.hash, `${what}.hash`) };
    }
    default:
      return fail(`${what}.kind is unknown`);
  }
}

function decodeTurn(value: unknown, index: number): TurnCheckpoint {
  const what = `turns[${index}]`;
  const v = record(value, what);
  const createdAt = v.createdAt;
  if (typeof createdAt !== 'number' || !Number.isInteger(createdAt) || createdAt < 0 || createdAt > LATEST_TIME) fail(`${what}.createdAt is out of range`);
  if (!Array.isArray(v.files) || v.files.length > MAX_FILES_PER_TURN) fail(`${what}.files is not a list of at most ${MAX_FILES_PER_TURN}`);
  const files: FileCheckpoint[] = v.files.map((f: unknown, i: number) => {
    const file = record(f, `${what}.files[${i}]`);
    const afterHash = file.afterHash === null ? null : hash(file.afterHash, `${what}.files[${i}].afterHash`);
    return { path: text(file.path, `${what}.files[${i}].path`, 4096), before: decodeBefore(file.before, `${what}.files[${i}].before`), afterHash };
  });
  return { turnId: text(v.turnId, `${what}.turnId`, 200), createdAt, files };
}

export type DecodedCheckpoints = { readonly ok: true; readonly turns: TurnCheckpoint[] } | { readonly ok: false; readonly reason: string };

export function deserialiseCheckpoints(serialised: string): DecodedCheckpoints {
  try {
    const root = record(JSON.parse(serialised), 'the store');
    if (root.version !== CHECKPOINT_FORMAT_VERSION) fail(`version ${JSON.stringify(root.version)} is not ${CHECKPOINT_FORMAT_VERSION}`);
    if (!Array.isArray(root.turns) || root.turns.length > MAX_TURNS_READ) fail(`turns is not a list of at most ${MAX_TURNS_READ}`);
    const turns = root.turns.map(decodeTurn);
    if (new Set(turns.map((t) => t.turnId)).size !== turns.length) fail('a turn id appears twice');
    return { ok: true, turns };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, reason: error.message };
    if (error instanceof SyntaxError) return { ok: false, reason: 'not JSON' };
    throw error;
  }
}

/** The newest turns (by position: the list is oldest first) within both limits. */
export function pruneCheckpoints(turns: readonly TurnCheckpoint[], limits: CheckpointLimits = DEFAULT_CHECKPOINT_LIMITS): TurnCheckpoint[] {
  const kept = turns.slice(-Math.max(0, Math.floor(limits.maxTurns)));
  const sizes = kept.map((t) => JSON.stringify(encodeTurn(t)).length + 1);
  let size = serialiseCheckpoints([]).length + sizes.reduce((a, b) => a + b, 0);
  let from = 0;
  while (from < kept.length && size > limits.maxChars) size -= sizes[from++] ?? 0;
  return kept.slice(from);
}

/** The persisted history: load (setting a corrupt store aside), add a turn (prune, save), find, forget. */
export class CheckpointHistory {
  private constructor(
    private readonly storage: CheckpointStorage,
    private readonly limits: CheckpointLimits,
    private turns: TurnCheckpoint[],
  ) {}

  /** Never throws on a bad store: it is set aside and the history starts empty (`setAside` says why). */
  static async load(storage: CheckpointStorage, limits: CheckpointLimits = DEFAULT_CHECKPOINT_LIMITS): Promise<{ history: CheckpointHistory; setAside?: string }> {
    const raw = await storage.read();
    if (raw === undefined || raw === '') return { history: new CheckpointHistory(storage, limits, []) };
    const decoded = deserialiseCheckpoints(raw);
    if (decoded.ok) return { history: new CheckpointHistory(storage, limits, pruneCheckpoints(decoded.turns, limits)) };
    await storage.setAside(raw, decoded.reason);
    await storage.write(serialiseCheckpoints([]));
    return { history: new CheckpointHistory(storage, limits, []), setAside: decoded.reason };
  }

  list(): readonly TurnCheckpoint[] {
    return this.turns;
  }

  get(turnId: string): TurnCheckpoint | undefined {
    return this.turns.find((t) => t.turnId === turnId);
  }

  /** Adds (or replaces) a turn with at least one changed file, prunes, saves. */
  async add(turn: TurnCheckpoint): Promise<void> {
    if (turn.files.length === 0) return;
    this.turns = pruneCheckpoints([...this.turns.filter((t) => t.turnId !== turn.turnId), turn], this.limits);
    await this.storage.write(serialiseCheckpoints(this.turns));
  }

  /** After an undo: the turn's checkpoint is spent. */
  async remove(turnId: string): Promise<void> {
    const next = this.turns.filter((t) => t.turnId !== turnId);
    if (next.length === this.turns.length) return;
    this.turns = next;
    await this.storage.write(serialiseCheckpoints(this.turns));
  }
}
