import MiniSearch from 'minisearch';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Chunk } from './chunker';
import type { FileStat } from './files';
import { contentHash } from './embeddings';
import { distinctTerms } from './identifiers';

/** Bump whenever the persisted shape or the tokenising changes: an older file is rebuilt. */
export const INDEX_FORMAT_VERSION = 1;
const FORMAT = 'stratus-search-index';

export interface ChunkMeta {
  path: string;
  startLine: number;
  endLine: number;
  /** The first meaningful line, shortened (shown in pickers and chat). */
  preview: string;
  /** sha1 of the chunk text: the embedding cache key. */
  hash: string;
}

export interface LexicalHit extends ChunkMeta {
  id: number;
  score: number;
}

interface FileRecord {
  mtime: number;
  size: number;
  chunks: number[];
}

interface Doc {
  id: number;
  path: string;
  text: string;
}

const PREVIEW_CHARS = 120;

export function previewOf(text: string): string {
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || /^[{}()[\];,]*$/.test(line) || /^(?:\/\/|\/\*|\*|#!)\s*$/.test(line)) continue;
    return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
  }
  return '';
}

/** Lines this long are data (base64, minified code), not words anyone searches for. */
const DATA_LINE = /^.{1000,}$/gm;
const tokenizeField = (text: string): string[] => distinctTerms(text.length > 1000 ? text.replace(DATA_LINE, '') : text);
const identity = (term: string): string => term;

function miniOptions(): ConstructorParameters<typeof MiniSearch<Doc>>[0] {
  return {
    fields: ['path', 'text'],
    storeFields: [],
    tokenize: tokenizeField,
    processTerm: identity,
    searchOptions: { boost: { path: 2 }, combineWith: 'OR', prefix: false, fuzzy: false, tokenize: tokenizeField, processTerm: identity },
  };
}

/** Why a persisted index was not used. */
export type LoadFailure = { reason: 'corrupt'; detail: string } | { reason: 'old_version'; found: unknown } | { reason: 'settings_changed' };

/**
 * The lexical (BM25) index of chunks, on MiniSearch: incremental per file, serialisable. Chunk text
 * is not kept (it is re-read from the file when needed), only line ranges and a preview line.
 */
export class LexicalIndex {
  private mini = new MiniSearch<Doc>(miniOptions());
  private readonly chunks = new Map<number, ChunkMeta>();
  private readonly files = new Map<string, FileRecord>();
  private nextId = 1;

  get fileCount(): number {
    return this.files.size;
  }

  get chunkCount(): number {
    return this.chunks.size;
  }

  paths(): string[] {
    return [...this.files.keys()];
  }

  fileStat(path: string): FileStat | undefined {
    const f = this.files.get(path);
    return f ? { mtime: f.mtime, size: f.size } : undefined;
  }

  chunk(id: number): ChunkMeta | undefined {
    return this.chunks.get(id);
  }

  allChunks(): IterableIterator<[number, ChunkMeta]> {
    return this.chunks.entries();
  }

  chunksOf(path: string): Array<ChunkMeta & { id: number }> {
    return (this.files.get(path)?.chunks ?? []).flatMap((id) => {
      const c = this.chunks.get(id);
      return c ? [{ ...c, id }] : [];
    });
  }

  /** Replaces whatever the index held for `path`. */
  setFile(path: string, stat: FileStat, chunks: readonly Chunk[]): void {
    this.removeFile(path);
    const ids: number[] = [];
    const docs: Doc[] = [];
    for (const c of chunks) {
      const id = this.nextId++;
      ids.push(id);
      this.chunks.set(id, { path, startLine: c.startLine, endLine: c.endLine, preview: previewOf(c.text), hash: contentHash(c.text) });
      docs.push({ id, path, text: c.text });
    }
    this.mini.addAll(docs);
    this.files.set(path, { mtime: stat.mtime, size: stat.size, chunks: ids });
  }

  removeFile(path: string): boolean {
    const record = this.files.get(path);
    if (!record) return false;
    if (record.chunks.length > 0) this.mini.discardAll(record.chunks);
    for (const id of record.chunks) this.chunks.delete(id);
    this.files.delete(path);
    return true;
  }

  clear(): void {
    this.mini = new MiniSearch<Doc>(miniOptions());
    this.chunks.clear();
    this.files.clear();
    this.nextId = 1;
  }

  /** Best chunks for the query's terms, best first. */
  search(query: string, limit: number): LexicalHit[] {
    if (distinctTerms(query).length === 0) return [];
    const results = this.mini.search(query);
    const hits: LexicalHit[] = [];
    for (const r of results) {
      const meta = this.chunks.get(r.id as number);
      if (!meta) continue;
      hits.push({ id: r.id as number, score: r.score, ...meta });
      if (hits.length >= limit) break;
    }
    return hits;
  }

  /** Gzipped JSON with a format tag, version and the settings key it was built with. */
  async serialize(settingsKey: string): Promise<Uint8Array> {
    const files: Array<[string, number, number, number[]]> = [];
    for (const [path, f] of this.files) files.push([path, f.mtime, f.size, f.chunks]);
    const chunks: Array<[number, number, number, string, string]> = [];
    for (const [id, c] of this.chunks) chunks.push([id, c.startLine, c.endLine, c.preview, c.hash]);
    const json = JSON.stringify({ format: FORMAT, version: INDEX_FORMAT_VERSION, key: settingsKey, nextId: this.nextId, files, chunks, mini: this.mini });
    return promisify(gzip)(Buffer.from(json, 'utf8'));
  }

  /** Reads a persisted index; anything unexpected is reported, never trusted. */
  static async deserialize(bytes: Uint8Array, settingsKey: string): Promise<LexicalIndex | LoadFailure> {
    let parsed: unknown;
    try {
      const json = (await promisify(gunzip)(bytes)).toString('utf8');
      parsed = JSON.parse(json);
    } catch (error) {
      return { reason: 'corrupt', detail: error instanceof Error ? error.message : String(error) };
    }
    if (typeof parsed !== 'object' || parsed === null) return { reason: 'corrupt', detail: 'not an object' };
    const o = parsed as Record<string, unknown>;
    if (o.format !== FORMAT) return { reason: 'corrupt', detail: 'unknown format tag' };
    if (o.version !== INDEX_FORMAT_VERSION) return { reason: 'old_version', found: o.version };
    if (o.key !== settingsKey) return { reason: 'settings_changed' };
    try {
      const index = new LexicalIndex();
      if (typeof o.nextId !== 'number' || !Array.isArray(o.files) || !Array.isArray(o.chunks)) throw new Error('missing tables');
      const byId = new Map<number, [number, number, string, string]>();
      for (const row of o.chunks as unknown[]) {
        if (!Array.isArray(row) || typeof row[0] !== 'number' || typeof row[1] !== 'number' || typeof row[2] !== 'number' || typeof row[3] !== 'string' || typeof row[4] !== 'string') throw new Error('bad chunk row');
        byId.set(row[0], [row[1], row[2], row[3], row[4]]);
      }
      for (const row of o.files as unknown[]) {
        if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'number' || typeof row[2] !== 'number' || !Array.isArray(row[3])) throw new Error('bad file row');
        const ids = row[3] as unknown[];
        const chunkIds: number[] = [];
        for (const id of ids) {
          const c = typeof id === 'number' ? byId.get(id) : undefined;
          if (!c || typeof id !== 'number') throw new Error('file refers to a missing chunk');
          index.chunks.set(id, { path: row[0], startLine: c[0], endLine: c[1], preview: c[2], hash: c[3] });
          chunkIds.push(id);
        }
        index.files.set(row[0], { mtime: row[1], size: row[2], chunks: chunkIds });
      }
      index.mini = MiniSearch.loadJS<Doc>(o.mini as Parameters<typeof MiniSearch.loadJS>[0], miniOptions());
      if (index.mini.documentCount !== index.chunks.size) throw new Error(`index holds ${index.mini.documentCount} chunks, tables ${index.chunks.size}`);
      index.nextId = o.nextId;
      return index;
    } catch (error) {
      return { reason: 'corrupt', detail: error instanceof Error ? error.message : String(error) };
    }
  }
}

export function isLoadFailure(value: LexicalIndex | LoadFailure): value is LoadFailure {
  return !(value instanceof LexicalIndex);
}
