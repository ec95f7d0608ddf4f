import { normalizePart, type PartSink } from './identifiers';

/** Most raw word parts remembered before the table starts over (bounds memory). */
const PART_TABLE_MAX = 1 << 20;

/**
 * Raw word part, as written (case kept) -> term id (-1 for filler): an open-addressing hash table
 * keyed by the part's two hashes and its length (`partHash`, `partCheck`: 64 bits), so the hot
 * loop of indexing neither compares characters nor makes a string for a part it has seen. Two
 * different parts of one length share both hashes with a chance of about 2^-64 per pair (the
 * table holds at most PART_TABLE_MAX parts): far below anything a search would show. Each slot is
 * 4 int32 in one array (hash, check, length (0: empty), term id): a probe reads one cache line.
 */
export class PartTable {
  table = new Int32Array(4 << 15);
  mask = (1 << 15) - 1;
  private size = 0;

  /** The term id of a part of length `len` with hashes `h` and `g`, or -2 when it is not in the table. */
  find(h: number, g: number, len: number): number {
    const table = this.table;
    const mask = this.mask;
    let slot = (h ^ (h >>> 16)) & mask;
    for (;;) {
      const at = slot << 2;
      const n = table[at + 2] ?? 0;
      if (n === 0) return -2;
      if (table[at] === h && table[at + 1] === g && n === len) return table[at + 3] ?? -1;
      slot = (slot + 1) & mask;
    }
  }

  add(h: number, g: number, len: number, term: number): void {
    if (this.size >= PART_TABLE_MAX) {
      this.table.fill(0);
      this.size = 0;
    }
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    this.place(this.table, this.mask, h, g, len, term);
    this.size++;
  }

  private place(table: Int32Array, mask: number, h: number, g: number, len: number, term: number): void {
    let slot = (h ^ (h >>> 16)) & mask;
    while (table[(slot << 2) + 2] !== 0) slot = (slot + 1) & mask;
    const at = slot << 2;
    table[at] = h;
    table[at + 1] = g;
    table[at + 2] = len;
    table[at + 3] = term;
  }

  private grow(): void {
    const old = this.table;
    const slots = (this.mask + 1) * 2;
    const table = new Int32Array(slots * 4);
    for (let at = 0; at < old.length; at += 4) {
      const len = old[at + 2] ?? 0;
      if (len !== 0) this.place(table, slots - 1, old[at] ?? 0, old[at + 1] ?? 0, len, old[at + 3] ?? 0);
    }
    this.table = table;
    this.mask = slots - 1;
  }
}

function grownInt32(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/**
 * Counts the terms of one chunk at a time: each part is looked up in the part table by its two
 * hashes and length, a string is made only for a part never seen before.
 */
export class TermCounter implements PartSink {
  text = '';
  /** The chunk being counted (its id marks the terms it has seen). */
  id = 0;
  length = 0;
  distinct = 0;
  parts = new PartTable();
  /** Per term: the last chunk id that used it, and its tf there. */
  seen = new Int32Array(1024);
  tf = new Int32Array(1024);
  /** The distinct terms of the chunk. */
  terms = new Int32Array(1024);

  constructor(private readonly termOf: (term: string) => number) {}

  /** Starts over (after the term ids were renumbered). */
  reset(termCount: number): void {
    this.parts = new PartTable();
    const cap = Math.max(1024, termCount * 2);
    this.seen = new Int32Array(cap);
    this.tf = new Int32Array(cap);
  }

  begin(text: string, id: number): void {
    this.text = text;
    this.id = id;
    this.length = 0;
    this.distinct = 0;
  }

  add(t: number, weight: number): void {
    this.length += weight;
    // A path term can be new (an id past the tables): grow them, or its mark would be lost and
    // the chunk's content would list the term a second time (a duplicate posting).
    if (t >= this.seen.length) {
      this.seen = grownInt32(this.seen, Math.max(t + 1, this.seen.length * 2));
      this.tf = grownInt32(this.tf, this.seen.length);
    }
    if (this.seen[t] === this.id) {
      this.tf[t] = (this.tf[t] ?? 0) + weight;
      return;
    }
    this.seen[t] = this.id;
    this.tf[t] = weight;
    const k = this.distinct++;
    if (k === this.terms.length) this.terms = grownInt32(this.terms, k * 2);
    this.terms[k] = t;
  }

  /** A part not in the table yet: its term (made once), remembered. */
  private miss(s: number, e: number, h: number, g: number): number {
    const term = normalizePart(this.text.slice(s, e));
    const t = term === '' ? -1 : this.termOf(term);
    if (t >= this.seen.length) {
      this.seen = grownInt32(this.seen, Math.max(t + 1, this.seen.length * 2));
      this.tf = grownInt32(this.tf, this.seen.length);
    }
    this.parts.add(h, g, e - s, t);
    return t;
  }

  part(s: number, e: number, h: number, g: number): void {
    // The part table's lookup, inlined (this is the hot path of indexing).
    const parts = this.parts;
    const table = parts.table;
    const mask = parts.mask;
    const len = e - s;
    let slot = (h ^ (h >>> 16)) & mask;
    let t = -2;
    for (;;) {
      const at = slot << 2;
      const n = table[at + 2] ?? 0;
      if (n === 0) break;
      if (table[at] === h && table[at + 1] === g && n === len) {
        t = table[at + 3] ?? -1;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (t === -2) t = this.miss(s, e, h, g);
    if (t < 0) return;
    this.length++;
    const seen = this.seen;
    if (seen[t] === this.id) {
      this.tf[t] = (this.tf[t] ?? 0) + 1;
      return;
    }
    seen[t] = this.id;
    this.tf[t] = 1;
    const k = this.distinct++;
    if (k === this.terms.length) this.terms = grownInt32(this.terms, k * 2);
    this.terms[k] = t;
  }
}
