// AssemblyScript, compiled to WebAssembly by scripts/build-wasm.mjs (not TypeScript: its own
// tsconfig, outside the project's). The index side of `forEachHashedPart`
// (src/core/search/text/identifiers.ts), the same scan over the same UTF-16 code units, with the part
// table of the term counter: for each part of `text[from, to)` (filler left out) it writes the
// part's term id; a part it has not seen is asked of the host once (`termOfPart`). About a third
// faster than the same loop in JavaScript (no string access per character, no bounds checks).
//
// Memory (bytes): [0, 4096) the ASCII class table and one word's parts; then blocks taken from
// the end as needed (bump allocation): the text (UTF-16), the term ids out, the part table.

@external("env", "termOfPart")
declare function termOfPart(start: i32, end: i32): i32;

const MAX_WORD_LENGTH: i32 = 64;
const FNV_SEED: i32 = 0x811c9dc5;
const FNV_PRIME: i32 = 0x01000193;
const CHECK_PRIME: i32 = 0x2f0b3a49;
const SEP: i32 = 0;
const LOWER: i32 = 1;
const UPPER: i32 = 2;
const DIGIT: i32 = 3;
const NONE: i32 = -1;
/** Most parts kept before the table starts over (bounds memory; as PART_TABLE_MAX was). */
const TABLE_MAX: i32 = 1 << 20;

const CLASS: usize = 0;
const STARTS: usize = 128;
const ENDS: usize = STARTS + 65 * 4;
const HASHES: usize = ENDS + 65 * 4;
const CHECKS: usize = HASHES + 65 * 4;
const HEAP: usize = 4096;

let top: usize = HEAP;
let textAt: usize = 0;
let textChars: i32 = 0;
let idsAt: usize = 0;
let tableAt: usize = 0;
let tableMask: i32 = 0;
let tableSize: i32 = 0;
let out: i32 = 0;

function classOf(c: i32): i32 {
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 48 && c <= 57) return DIGIT;
  if (c == 95 || c == 36) return SEP;
  if (c >= 0xc0 && c != 0xd7 && c != 0xf7 && !(c >= 0x2000 && c <= 0x2bff) && !(c >= 0x3000 && c <= 0x303f) && !(c >= 0xd800 && c <= 0xdfff) && c != 0xfeff) return LOWER;
  return NONE;
}

/** `bytes` more at the top of the memory (grown as needed). */
function take(bytes: usize): usize {
  const at = top;
  top += (bytes + 15) & ~(<usize>15);
  const have = (<usize>memory.size()) << 16;
  if (top > have && memory.grow(<i32>((top - have + 0xffff) >> 16)) < 0) unreachable();
  return at;
}

function newTable(slots: i32): void {
  tableAt = take((<usize>slots) << 4);
  memory.fill(tableAt, 0, (<usize>slots) << 4);
  tableMask = slots - 1;
  tableSize = 0;
}

/** Sets up the class table and an empty part table. */
export function init(): void {
  if (memory.size() == 0 && memory.grow(1) < 0) unreachable();
  for (let c = 0; c < 128; c++) store<i8>(CLASS + c, <i8>classOf(c));
  newTable(1 << 15);
}

/**
 * Where to write a text of `chars` code units (room for its term ids too: at most one per two
 * characters); the memory may grow (the host's views of it are then stale).
 */
export function textArea(chars: i32): usize {
  if (chars > textChars) {
    textChars = max(chars, textChars * 2);
    textAt = take((<usize>textChars) << 1);
    idsAt = take(((<usize>textChars >> 1) + 1) << 2);
  }
  return textAt;
}

/** Where `scan` writes its term ids. */
export function idsArea(): usize {
  return idsAt;
}

/** Forgets every part (the host renumbered its terms). */
export function clear(): void {
  memory.fill(tableAt, 0, (<usize>(tableMask + 1)) << 4);
  tableSize = 0;
}

@inline function ch(i: i32): i32 {
  return <i32>load<u16>(textAt + ((<usize>i) << 1));
}

function partHash(s: i32, e: i32): i32 {
  let h = FNV_SEED;
  for (let i = s; i < e; i++) h = (h ^ ch(i)) * FNV_PRIME;
  return h;
}

function partCheck(s: i32, e: i32): i32 {
  let g = 0;
  for (let i = s; i < e; i++) g = (g + ch(i)) * CHECK_PRIME;
  return g;
}

function place(table: usize, mask: i32, h: i32, g: i32, len: i32, term: i32): void {
  let slot = (h ^ (h >>> 16)) & mask;
  while (load<i32>(table + ((<usize>slot) << 4), 8) != 0) slot = (slot + 1) & mask;
  const at = table + ((<usize>slot) << 4);
  store<i32>(at, h);
  store<i32>(at, g, 4);
  store<i32>(at, len, 8);
  store<i32>(at, term, 12);
}

function grow(): void {
  const old = tableAt;
  const slots = (tableMask + 1) << 1;
  const oldSlots = tableMask + 1;
  const size = tableSize;
  newTable(slots);
  for (let k = 0; k < oldSlots; k++) {
    const at = old + ((<usize>k) << 4);
    const len = load<i32>(at, 8);
    if (len != 0) place(tableAt, tableMask, load<i32>(at), load<i32>(at, 4), len, load<i32>(at, 12));
  }
  tableSize = size;
}

/** The part text[s, e) with hashes h and g: its term id written out (a filler part is not). */
function count(s: i32, e: i32, h: i32, g: i32): void {
  const len = e - s;
  let slot = (h ^ (h >>> 16)) & tableMask;
  let term: i32 = 0;
  while (true) {
    const at = tableAt + ((<usize>slot) << 4);
    const n = load<i32>(at, 8);
    if (n == 0) {
      term = termOfPart(s, e);
      if (tableSize >= TABLE_MAX) clear();
      if ((tableSize + 1) << 1 > tableMask + 1) grow();
      place(tableAt, tableMask, h, g, len, term);
      tableSize++;
      break;
    }
    if (load<i32>(at) == h && load<i32>(at, 4) == g && n == len) {
      term = load<i32>(at, 12);
      break;
    }
    slot = (slot + 1) & tableMask;
  }
  if (term >= 0) {
    store<i32>(idsAt + ((<usize>out) << 2), term);
    out++;
  }
}

@inline function keep(parts: i32, s: i32, e: i32, h: i32, g: i32): void {
  const k = (<usize>parts) << 2;
  store<i32>(STARTS + k, s);
  store<i32>(ENDS + k, e);
  store<i32>(HASHES + k, h);
  store<i32>(CHECKS + k, g);
}

/** The term ids of the parts of text[from, to), in order (filler left out), at `idsArea()`; returns how many. */
export function scan(from: i32, to: i32): i32 {
  out = 0;
  let i = from;
  while (i < to) {
    let c = ch(i);
    let cls = c < 128 ? <i32>load<i8>(CLASS + c) : classOf(c);
    if (cls == NONE) {
      i++;
      continue;
    }
    const wordStart = i;
    let parts = 0;
    let partStart = -1;
    let prev = SEP;
    let h = FNV_SEED;
    let g = 0;
    while (true) {
      if (cls == prev) {
        if (partStart >= 0) {
          h = (h ^ c) * FNV_PRIME;
          g = (g + c) * CHECK_PRIME;
        }
      } else if (cls == SEP) {
        if (partStart >= 0) {
          if (parts <= MAX_WORD_LENGTH) keep(parts++, partStart, i, h, g);
          partStart = -1;
        }
      } else if (partStart < 0) {
        partStart = i;
        h = (FNV_SEED ^ c) * FNV_PRIME;
        g = c * CHECK_PRIME;
      } else if (prev == UPPER && cls == LOWER) {
        // "HTTPServer": the last capital starts the next part.
        if (i - 1 > partStart) {
          if (parts <= MAX_WORD_LENGTH) keep(parts++, partStart, i - 1, partHash(partStart, i - 1), partCheck(partStart, i - 1));
          partStart = i - 1;
          const p = ch(i - 1);
          h = (FNV_SEED ^ p) * FNV_PRIME;
          g = p * CHECK_PRIME;
        }
        h = (h ^ c) * FNV_PRIME;
        g = (g + c) * CHECK_PRIME;
      } else {
        // lower -> upper, to or from a digit: a new part starts here.
        if (parts <= MAX_WORD_LENGTH) keep(parts++, partStart, i, h, g);
        partStart = i;
        h = (FNV_SEED ^ c) * FNV_PRIME;
        g = c * CHECK_PRIME;
      }
      prev = cls;
      i++;
      if (cls == LOWER) {
        while (i < to) {
          c = ch(i);
          if (c < 97 || c > 122) break;
          h = (h ^ c) * FNV_PRIME;
          g = (g + c) * CHECK_PRIME;
          i++;
        }
      }
      if (i >= to) break;
      c = ch(i);
      cls = c < 128 ? <i32>load<i8>(CLASS + c) : classOf(c);
      if (cls == NONE) break;
    }
    if (partStart >= 0 && parts <= MAX_WORD_LENGTH) keep(parts++, partStart, i, h, g);
    if (i - wordStart > MAX_WORD_LENGTH) continue;
    for (let k = 0; k < parts; k++) {
      const at = (<usize>k) << 2;
      const s = load<i32>(STARTS + at);
      const e = load<i32>(ENDS + at);
      if (e - s >= 2) count(s, e, load<i32>(HASHES + at), load<i32>(CHECKS + at));
    }
  }
  return out;
}
