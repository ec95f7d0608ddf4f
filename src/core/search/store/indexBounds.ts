/**
 * Range checks for the numbers a persisted search index states about itself, made before anything
 * is allocated from them: a crafted or damaged file must be refused (the index is rebuilt), never
 * make the extension host allocate gigabytes (an out-of-memory abort cannot be caught).
 */

/** A persisted index that cannot be trusted; the loader turns it into `{ reason: 'corrupt' }`. */
export class IndexCorruptError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'IndexCorruptError';
  }
}

/** The largest chunk id a posting can hold: postings are `id << tfBits | tf` in a uint32. */
export function maxChunkId(tfBits: number): number {
  return 2 ** (32 - tfBits) - 1;
}

/** The shortest JSON a chunk row can take: `[1,1,1,"","",0],`. */
const MIN_CHUNK_ROW_BYTES = 16;

/**
 * Checks the header's `nextId` against what the file can describe. Chunk ids are written compact
 * (1..n, see `compactIds`), so `nextId` is at most the number of chunk rows + 1, which the header's
 * byte length bounds in turn; an absolute cap (the posting format's) holds whatever the file says.
 */
export function checkNextId(nextId: unknown, chunkRows: number, headerBytes: number, tfBits: number): number {
  if (typeof nextId !== 'number' || !Number.isSafeInteger(nextId) || nextId < 1) throw new IndexCorruptError('bad nextId');
  if (chunkRows > Math.ceil(headerBytes / MIN_CHUNK_ROW_BYTES)) throw new IndexCorruptError('more chunk rows than the header can hold');
  if (nextId > chunkRows + 1 || nextId > maxChunkId(tfBits) + 1) throw new IndexCorruptError(`nextId ${nextId} is more than the ${chunkRows} chunks of the file describe`);
  return nextId;
}

/** Whether `v` is a whole number in [0, max]: lines, lengths, sizes read from the file. */
export function isCount(v: unknown, max = 2 ** 31 - 1): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

/**
 * New ids 1..n for the live chunks, in the order of their old ids (so postings lists, ascending
 * by id, stay ascending): `remap[oldId]` is the new id, 0 for an id not live.
 */
export function compactIds(liveIds: Iterable<number>, nextId: number): { remap: Int32Array; count: number } {
  const remap = new Int32Array(nextId);
  for (const id of liveIds) remap[id] = 1;
  let count = 0;
  for (let id = 1; id < nextId; id++) if (remap[id]) remap[id] = ++count;
  return { remap, count };
}
