import { TF_BITS, TF_MAX, type ChunkMeta, type FileRecord } from '../shared/indexTypes';
import type { PostingTable } from '../shared/postings';
import type { Segment } from './segment';
import { SegmentWriter } from './segmentWriter';

/** The tables of an index, as a merge or the live file reads them (not to be changed). */
export interface IndexParts {
  seg: Segment | undefined;
  segPaths: readonly string[];
  segRemoved: Uint8Array;
  files: ReadonlyMap<string, FileRecord>;
  chunks: { get(id: number): ChunkMeta | undefined };
  lengths: readonly number[];
  termNames: readonly string[];
  /** The live tier's term ids in the sorted order of their strings. */
  sortedTermIds: () => Int32Array;
  base: PostingTable;
  extra: ReadonlyArray<readonly number[] | undefined>;
}

/**
 * Writes the whole index as one new segment: the segment's chunks that are not tombstones and
 * the live tier's, renumbered 1..n in id order (so every list stays ascending), each term's
 * postings from both tiers with the removed chunks' dropped (and terms left without any). The
 * result scores exactly as a fresh build of the same files. Reads the old segment's lists from
 * its file (not into its query cache).
 */
export function writeMerged(parts: IndexParts, settingsKey: string): Uint8Array[] {
  const steps = mergeSteps(parts, settingsKey);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Terms merged between two yields of `mergeSteps`. */
const TERMS_PER_STEP = 2048;

/**
 * `writeMerged` in steps: yields every few thousand terms, so its caller can let queries run
 * between them (they read the index as it was: the caller holds updates back until it is done).
 */
export function* mergeSteps(parts: IndexParts, settingsKey: string): Generator<void, Uint8Array[]> {
  const { seg, lengths } = parts;
  const writer = new SegmentWriter();
  let bound = (seg?.postingCount ?? 0) + parts.base.data.length;
  for (const list of parts.extra) bound += list?.length ?? 0;
  writer.reservePostings(bound);
  const records = [...parts.files].sort((a, b) => a[1].first - b[1].first);
  const remap = new Int32Array(lengths.length + 1);
  const segPreviews = seg && seg.header.previewBytes > 0 ? seg.readPreviews() : undefined;
  const decoder = new TextDecoder();
  const previewOffsets = seg?.tables.previewOffsets;
  for (const [path, f] of records) {
    writer.addFile(path, f.mtime, f.size);
    for (let id = f.first; id < f.first + f.count; id++) {
      const len = lengths[id] ?? 0;
      if (f.seg !== undefined && seg) {
        const preview = segPreviews && previewOffsets ? decoder.decode(segPreviews.subarray(previewOffsets[id - 1] ?? 0, previewOffsets[id] ?? 0)) : '';
        remap[id] = writer.addChunk(seg.startLine(id), seg.endLine(id), len, preview, seg.hash(id));
      } else {
        const c: ChunkMeta | undefined = parts.chunks.get(id);
        if (c) remap[id] = writer.addChunk(c.startLine, c.endLine, len, c.preview, c.hash);
      }
    }
  }
  // The live tier's terms in sorted order, merged with the segment's (sorted already).
  const names = parts.termNames;
  const order = parts.sortedTermIds();
  let list = new Uint32Array(1 << 12);
  let n = 0;
  const add = (values: ArrayLike<number> | undefined): void => {
    if (!values) return;
    if (n + values.length > list.length) {
      const grown = new Uint32Array(Math.max(n + values.length, list.length * 2));
      grown.set(list.subarray(0, n));
      list = grown;
    }
    for (let i = 0; i < values.length; i++) {
      const p = values[i] ?? 0;
      const id = remap[p >>> TF_BITS] ?? 0;
      if (id > 0 && (lengths[p >>> TF_BITS] ?? 0) > 0) list[n++] = (id << TF_BITS) | (p & TF_MAX);
    }
  };
  const { offsets, data } = parts.base;
  const baseTerms = offsets.length - 1;
  const live = (t: number): void => {
    if (t < baseTerms) add(data.subarray(offsets[t] ?? 0, offsets[t + 1] ?? 0));
    add(parts.extra[t]);
  };
  const segTerms = seg?.termCount ?? 0;
  let k = 0;
  let j = 0;
  let steps = 0;
  let segTerm = seg && segTerms > 0 ? seg.term(0) : undefined;
  while (k < segTerms || j < order.length) {
    const t = order[j];
    const liveTerm = t === undefined ? undefined : (names[t] ?? '');
    n = 0;
    let term: string;
    if (segTerm !== undefined && (liveTerm === undefined || segTerm <= liveTerm)) {
      term = segTerm;
      add(seg?.postings(k, false));
      if (liveTerm === segTerm && t !== undefined) {
        live(t);
        j++;
      }
      k++;
      segTerm = seg && k < segTerms ? seg.term(k) : undefined;
    } else {
      term = liveTerm ?? '';
      if (t !== undefined) live(t);
      j++;
    }
    writer.addTerm(term, list, n);
    if (++steps % TERMS_PER_STEP === 0) yield;
  }
  return writer.finish(settingsKey);
}
