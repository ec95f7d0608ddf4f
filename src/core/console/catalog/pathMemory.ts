/**
 * Which path shape answered each kind's collection, per console base URL: `contract` (the
 * contract's path) or `production` (productionPaths.ts). Kept in memory and, through `persist`, in
 * the extension's global state, so a window does not find out again what the last one found.
 */
import { isRecord } from '../../json';

export type PathShape = 'contract' | 'production';

/** What a client remembers and asks; one instance may serve every client of a window. */
export interface PathMemory {
  get(baseUrl: string, kindId: string): PathShape | undefined;
  set(baseUrl: string, kindId: string, shape: PathShape): void;
}

export type PathMemorySnapshot = Record<string, Record<string, PathShape>>;

// Bounds on what is read back from storage (DESIGN: every value read from disk is range-checked).
const MAX_BASE_URLS = 50;
const MAX_KINDS = 50;
const MAX_KEY_LENGTH = 2048;

/** The base URL as a memory key: no trailing slash, so `https://c/` and `https://c` are one console. */
export function memoryKey(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** A stored snapshot, keeping only well-formed entries (anything else is dropped, never fatal). */
export function readSnapshot(stored: unknown): PathMemorySnapshot {
  const out: PathMemorySnapshot = {};
  if (!isRecord(stored)) return out;
  for (const [base, kinds] of Object.entries(stored).slice(0, MAX_BASE_URLS)) {
    if (base.length > MAX_KEY_LENGTH || !isRecord(kinds)) continue;
    const entry: Record<string, PathShape> = {};
    for (const [kind, shape] of Object.entries(kinds).slice(0, MAX_KINDS)) {
      if (kind.length <= MAX_KEY_LENGTH && (shape === 'contract' || shape === 'production')) entry[kind] = shape;
    }
    out[base] = entry;
  }
  return out;
}

export class InMemoryPathMemory implements PathMemory {
  private readonly byBase: PathMemorySnapshot;

  /** `stored`: a snapshot read back (checked here); `persist`: called with the whole snapshot after each change. */
  constructor(stored?: unknown, private readonly persist?: (snapshot: PathMemorySnapshot) => void) {
    this.byBase = readSnapshot(stored);
  }

  get(baseUrl: string, kindId: string): PathShape | undefined {
    return this.byBase[memoryKey(baseUrl)]?.[kindId];
  }

  set(baseUrl: string, kindId: string, shape: PathShape): void {
    const key = memoryKey(baseUrl);
    if (this.byBase[key]?.[kindId] === shape) return;
    this.byBase[key] = { ...this.byBase[key], [kindId]: shape };
    this.persist?.(structuredClone(this.byBase));
  }
}
