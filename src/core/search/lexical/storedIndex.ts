import { BytesFile, type IndexStorage, type RandomAccessFile } from '../shared/files';
import type { LoadFailure } from '../shared/indexTypes';
import { isLoadFailure, LexicalIndex } from './lexical';
import { applyLive, encodeLive, LIVE_FILE } from './liveFile';
import { mergeSteps } from '../store/segmentMerge';

/** The segment's name in storage (the service checks it exists to know a first build from a reload). */
export const INDEX_FILE = 'search-index.bin';

async function openFile(storage: IndexStorage, name: string): Promise<RandomAccessFile | undefined> {
  if (storage.open) return storage.open(name);
  const bytes = await storage.read(name);
  return bytes ? new BytesFile(bytes) : undefined;
}

/**
 * The stored index: the segment opened (its postings stay on disk), the live file applied when it
 * belongs to that segment. `liveRefused` says why a live file was not applied (the walk that follows
 * re-indexes what changed since the segment was written). undefined when nothing is stored.
 */
export async function loadStoredIndex(storage: IndexStorage, settingsKey: string): Promise<{ index: LexicalIndex | LoadFailure; liveRefused?: string } | undefined> {
  const file = await openFile(storage, INDEX_FILE);
  if (!file) return undefined;
  const index = LexicalIndex.open(file, settingsKey);
  if (isLoadFailure(index)) return { index };
  const live = await storage.read(LIVE_FILE);
  const seg = index.segment;
  if (!live || !seg) return { index };
  const refused = applyLive(index, seg, live, settingsKey);
  return refused ? { index, liveRefused: refused } : { index };
}

/** Whether a save writes a whole new segment (none on disk for this index yet, or past the merge threshold) rather than the live file. */
export function needsNewSegment(index: LexicalIndex, segmentOnDisk: number | undefined): boolean {
  const seg = index.segment;
  return !seg || seg.generation !== segmentOnDisk || index.needsMerge();
}

/**
 * Writes the index: a whole new segment (merged) when the index has none on disk yet or its live
 * tier passed the merge threshold, else only the live file beside the segment. A new segment is
 * opened back (`reopened`: postings on disk, the memory of the one written from freed) when
 * `stillCurrent` says nothing changed while it was written; `generation` is the new segment's.
 */
export async function storeIndex(storage: IndexStorage, index: LexicalIndex, settingsKey: string, segmentOnDisk: number | undefined, stillCurrent: () => boolean): Promise<{ generation?: number; reopened?: LexicalIndex }> {
  if (!needsNewSegment(index, segmentOnDisk)) {
    await storage.write(LIVE_FILE, encodeLive(index.parts(), settingsKey));
    return {};
  }
  // In slices of ~15 ms: queries run between them, on the index as it was.
  const steps = mergeSteps(index.parts(), settingsKey);
  let pieces: Uint8Array[] | undefined;
  let slice = performance.now();
  while (!pieces) {
    const step = steps.next();
    if (step.done) pieces = step.value;
    else if (performance.now() - slice > 15) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  const head = pieces[0] ?? new Uint8Array(12);
  const generation = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(8, true);
  await storage.write(INDEX_FILE, pieces);
  await storage.delete(LIVE_FILE);
  if (!stillCurrent()) return { generation };
  const reopened = (await loadStoredIndex(storage, settingsKey))?.index;
  if (!reopened || isLoadFailure(reopened)) return { generation };
  if (stillCurrent() && reopened.segment?.generation === generation) return { generation, reopened };
  reopened.close();
  return { generation };
}

export { LIVE_FILE };
