import { normalizePart } from './identifiers';
import { PartScanner } from './partScanner';

function grownInt32(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

/**
 * Counts the terms of one chunk at a time: the parts of the chunk's text are scanned and looked up
 * in WebAssembly (`PartScanner`), which gives their term ids; a string is made only for a part
 * never seen before (`miss`).
 */
export class TermCounter {
  /** The text loaded into the scanner (the file whose chunks are counted). */
  text = '';
  /** The chunk being counted (its id marks the terms it has seen). */
  id = 0;
  length = 0;
  distinct = 0;
  /** Per term: the last chunk id that used it, and its tf there. */
  seen = new Int32Array(1024);
  tf = new Int32Array(1024);
  /** The distinct terms of the chunk. */
  terms = new Int32Array(1024);
  /** Made on the first text counted: an index that only answers queries never needs one. */
  private scannerMade: PartScanner | undefined;

  /** Per term id: the id of its declared-part mark (-1: not asked yet; `addMarks`). */
  private marks = new Int32Array(0);

  /** `termOf` gives a part's term id, `markOf` a term id's mark's (made once per term: then kept in `marks`). */
  constructor(
    private readonly termOf: (term: string) => number,
    private readonly markOf: (t: number) => number = () => -1,
  ) {}

  /** Starts over (after the term ids were renumbered). */
  reset(termCount: number): void {
    this.scannerMade?.clear();
    const cap = Math.max(1024, termCount * 2);
    this.seen = new Int32Array(cap);
    this.tf = new Int32Array(cap);
    this.marks = new Int32Array(0);
  }

  /** Starts counting chunk `id` of `text` (loaded into the scanner unless it already is). */
  begin(text: string, id: number): void {
    if (text !== this.text) {
      this.scanner.load(text);
      this.text = text;
    }
    this.id = id;
    this.length = 0;
    this.distinct = 0;
  }

  /** Lets the last text go (the scanner keeps its copy until the next one). */
  release(): void {
    this.text = '';
  }

  private get scanner(): PartScanner {
    this.scannerMade ??= new PartScanner((start, end) => this.miss(start, end));
    return this.scannerMade;
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

  /**
   * Counts once, outside the chunk's length, the declared-part mark of each term of `text[from,
   * to)` (the characters of a name the chunk declares) when they are two or more: a declared
   * name's parts (a name of one word has none: lexical/declaredParts.ts; the property tests compare
   * this with a plain definition, test/unit/search/declaredMarks.ts `addDeclaredParts`), read by the
   * scanner that reads the chunk, so a part seen before costs no string and no map lookup, and its
   * mark's id is read from an array.
   */
  addMarks(from: number, to: number): void {
    const scanner = this.scanner;
    const n = scanner.scan(from, to);
    if (n < 2) return;
    const ids = scanner.ids;
    for (let k = 0; k < n; k++) {
      const t = ids[k] ?? 0;
      if (t >= this.marks.length) {
        const grown = new Int32Array(Math.max(t + 1, this.marks.length * 2, 1024)).fill(-1);
        grown.set(this.marks);
        this.marks = grown;
      }
      let m = this.marks[t] ?? -1;
      if (m < 0) this.marks[t] = m = this.markOf(t);
      if (m >= this.seen.length) {
        this.seen = grownInt32(this.seen, Math.max(m + 1, this.seen.length * 2));
        this.tf = grownInt32(this.tf, this.seen.length);
      }
      if (this.seen[m] === this.id) continue;
      this.seen[m] = this.id;
      this.tf[m] = 1;
      const d = this.distinct++;
      if (d === this.terms.length) this.terms = grownInt32(this.terms, d * 2);
      this.terms[d] = m;
    }
  }

  /** Counts the terms of `text[from, to)` (the text given to `begin`). */
  scan(from: number, to: number): void {
    const n = this.scanner.scan(from, to);
    const ids = this.scanner.ids;
    const seen = this.seen;
    const tf = this.tf;
    const id = this.id;
    let terms = this.terms;
    let distinct = this.distinct;
    for (let k = 0; k < n; k++) {
      const t = ids[k] ?? 0;
      if (seen[t] === id) {
        tf[t] = (tf[t] ?? 0) + 1;
        continue;
      }
      seen[t] = id;
      tf[t] = 1;
      if (distinct === terms.length) terms = grownInt32(terms, distinct * 2);
      terms[distinct++] = t;
    }
    this.terms = terms;
    this.distinct = distinct;
    this.length += n;
  }

  /** A part the scanner has not seen: its term (made once; -1 for filler). */
  private miss(start: number, end: number): number {
    const term = normalizePart(this.text.slice(start, end));
    const t = term === '' ? -1 : this.termOf(term);
    if (t >= this.seen.length) {
      this.seen = grownInt32(this.seen, Math.max(t + 1, this.seen.length * 2));
      this.tf = grownInt32(this.tf, this.seen.length);
    }
    return t;
  }
}
