import { previewStart, type ChunkMeta, type PreviewBytes } from '../shared/indexTypes';
import { ByteBlock, WordBlock } from '../store/segmentFormat';

/**
 * The live tier's chunks by id, in columns rather than one object per chunk: line ranges in one
 * typed array, previews as one UTF-8 block, the path as a reference to the file's one string. At
 * 50,000 files a build holds ~600,000 chunks; as objects in a Map (with their preview strings)
 * they took ~400 bytes each, in columns ~100. Ids are added in increasing order, each the next
 * one (the index numbers its chunks so); `get` returns a view.
 */
export class ChunkColumns {
  /** The id of slot 0 (set by the first chunk added). */
  private base = 0;
  private slots = 0;
  private live = new Uint8Array(1024);
  private lines = new Int32Array(2048);
  private paths: string[] = [];
  private previews = new ByteBlock();
  private previewEnds = new WordBlock();
  /** Bytes of the previews of removed chunks: the block is rewritten without them past half. */
  private deadBytes = 0;
  /** Content hashes set (embeddings), by slot; '' for the others. */
  private readonly hashes = new Map<number, string>();
  size = 0;

  set(id: number, meta: ChunkMeta): void {
    const slot = this.nextSlot(id, 1);
    this.live[slot] = 1;
    this.lines[2 * slot] = meta.startLine;
    this.lines[2 * slot + 1] = meta.endLine;
    this.paths.push(meta.path);
    this.previewEnds.push(this.previews.append(meta.preview));
    if (meta.hash !== '') this.hashes.set(slot, meta.hash);
    this.slots++;
    this.size++;
  }

  /**
   * Adds `count` chunks of one file at once (a build worker's share), ids from `id`: their lines
   * from `lines[2 * from ..]`, their previews copied as bytes from `previews` (chunks `from ..`).
   */
  setMany(id: number, path: string, count: number, lines: Int32Array, previews: PreviewBytes, from: number): void {
    if (count === 0) return;
    const slot = this.nextSlot(id, count);
    this.live.fill(1, slot, slot + count);
    this.lines.set(lines.subarray(2 * from, 2 * (from + count)), 2 * slot);
    for (let k = 0; k < count; k++) this.paths.push(path);
    const ends = previews.ends;
    const start = previewStart(ends, from);
    const at = this.previews.length - start;
    this.previews.appendBytes(previews.bytes.subarray(start, previewStart(ends, from + count)));
    this.previewEnds.reserve(count);
    for (let k = from; k < from + count; k++) this.previewEnds.push(at + (ends[k] ?? 0));
    this.slots += count;
    this.size += count;
  }

  /** Every slot's preview as one UTF-8 block (views, no copy: the build worker sends them as they are). */
  previewBlock(): PreviewBytes {
    const block = this.previews.bytes;
    // A plain Uint8Array over the block (not a Buffer): it arrives as one on the other thread too.
    return { bytes: new Uint8Array(block.buffer, block.byteOffset, this.previews.length), ends: this.previewEnds.view() };
  }

  /** The slot of `id`, the next one, with room for `count` from it. */
  private nextSlot(id: number, count: number): number {
    if (this.slots === 0) this.base = id;
    const slot = id - this.base;
    if (slot !== this.slots) throw new Error(`chunk ids are added in order (${id} after ${this.base + this.slots - 1})`);
    if (slot + count > this.live.length) {
      const cap = Math.max(slot + count, this.live.length * 2);
      const live = new Uint8Array(cap);
      live.set(this.live);
      this.live = live;
      const lines = new Int32Array(cap * 2);
      lines.set(this.lines);
      this.lines = lines;
    }
    return slot;
  }

  private slotOf(id: number): number {
    const slot = id - this.base;
    return slot >= 0 && slot < this.slots && this.live[slot] === 1 ? slot : -1;
  }

  get(id: number): ChunkMeta | undefined {
    const slot = this.slotOf(id);
    return slot < 0 ? undefined : new LiveChunk(this, slot);
  }

  delete(id: number): void {
    const slot = this.slotOf(id);
    if (slot < 0) return;
    this.live[slot] = 0;
    this.paths[slot] = '';
    this.hashes.delete(slot);
    this.size--;
    this.deadBytes += this.previewEnd(slot) - this.previewStart(slot);
    if (this.deadBytes > 1 << 20 && this.deadBytes > this.previews.length / 2) this.dropDeadPreviews();
  }

  /** Rewrites the previews block with the live chunks' only (ids and slots stay). */
  private dropDeadPreviews(): void {
    const previews = new ByteBlock();
    const ends = new WordBlock();
    for (let slot = 0; slot < this.slots; slot++) ends.push(this.live[slot] === 1 ? previews.append(this.preview(slot)) : previews.length);
    this.previews = previews;
    this.previewEnds = ends;
    this.deadBytes = 0;
  }

  private previewStart(slot: number): number {
    return previewStart(this.previewEnds.words, slot);
  }

  private previewEnd(slot: number): number {
    return this.previewEnds.words[slot] ?? 0;
  }

  *entries(): IterableIterator<[number, ChunkMeta]> {
    for (let slot = 0; slot < this.slots; slot++) if (this.live[slot] === 1) yield [this.base + slot, new LiveChunk(this, slot)];
  }

  path(slot: number): string {
    return this.paths[slot] ?? '';
  }

  line(slot: number, end: 0 | 1): number {
    return this.lines[2 * slot + end] ?? 0;
  }

  preview(slot: number): string {
    return this.previews.bytes.toString('utf8', this.previewStart(slot), this.previewEnd(slot));
  }

  hash(slot: number): string {
    return this.hashes.get(slot) ?? '';
  }

  setHash(slot: number, hash: string): void {
    if (hash === '') this.hashes.delete(slot);
    else this.hashes.set(slot, hash);
  }
}

/** A live chunk's metadata, read from the columns when asked for. */
class LiveChunk implements ChunkMeta {
  constructor(
    private readonly columns: ChunkColumns,
    private readonly slot: number,
  ) {}
  get path(): string {
    return this.columns.path(this.slot);
  }
  get startLine(): number {
    return this.columns.line(this.slot, 0);
  }
  get endLine(): number {
    return this.columns.line(this.slot, 1);
  }
  get preview(): string {
    return this.columns.preview(this.slot);
  }
  get hash(): string {
    return this.columns.hash(this.slot);
  }
  set hash(value: string) {
    this.columns.setHash(this.slot, value);
  }
}
