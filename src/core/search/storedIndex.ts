import { BytesFile, type IndexStorage, type RandomAccessFile } from './files';
import type { LoadFailure } from './indexTypes';
import { isLoadFailure, LexicalIndex } from './lexical';
import { applyLive, encodeLive, LIVE_FILE } from './liveFile';
import { writeMerged } from './segmentMerge';

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

/**
 * Writes the index: a whole new segment (merged) when the index has none on disk yet or its live
 * tier passed the merge threshold, else only the live file beside the segment. Returns the
 * generation of a new segment written, undefined when only the live file was.
 */
export async function storeIndex(storage: IndexStorage, index: LexicalIndex, settingsKey: string, segmentOnDisk: number | undefined): Promise<number | undefined> {
  const seg = index.segment;
  if (seg && seg.generation === segmentOnDisk && !index.needsMerge()) {
    await storage.write(LIVE_FILE, encodeLive(index.parts(), settingsKey));
    return undefined;
  }
  const pieces = writeMerged(index.parts(), settingsKey);
  const generation = new DataView(pieces[0]?.buffer ?? new ArrayBuffer(12), pieces[0]?.byteOffset ?? 0).getUint32(8, true);
  await storage.write(INDEX_FILE, pieces);
  await storage.delete(LIVE_FILE);
  return generation;
}

export { LIVE_FILE };
