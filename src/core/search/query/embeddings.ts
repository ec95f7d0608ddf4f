import { createHash } from 'node:crypto';
import { CHARS_PER_TOKEN, estimateTextTokens } from '../../inference/models/tokens';
import type { EmbedFn } from '../shared/searchTypes';

export type { EmbedFn };

/** Bump when the cache file layout changes. */
export const EMBEDDING_CACHE_VERSION = 1;
const MAGIC = 0x53545645; // "STVE"
const HASH_BYTES = 20;

/** sha1 of the chunk text, hex: the cache key (same text, same vector, whatever the file). */
export function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export interface EmbeddingBatchOptions {
  /** The embedding model's context; every input is trimmed to fit it. */
  maxModelLen: number;
  /** Inputs per request. Default 64. */
  maxBatchInputs?: number;
  /** Estimated tokens per request (the sum of its inputs). Default max(maxModelLen, 8192). */
  maxBatchTokens?: number;
}

export interface EmbeddingBatch {
  /** Positions in the submitted texts. */
  indices: number[];
  inputs: string[];
}

/** Tokens kept free for the model's special tokens. */
export const EMBED_OVERHEAD_TOKENS = 8;

/** Groups texts into requests: each input fits the model's context, each request the batch budget. */
export function planEmbeddingBatches(texts: readonly string[], options: EmbeddingBatchOptions): EmbeddingBatch[] {
  const perInputChars = Math.max(1, (options.maxModelLen - EMBED_OVERHEAD_TOKENS) * CHARS_PER_TOKEN);
  const maxInputs = Math.max(1, options.maxBatchInputs ?? 64);
  const maxTokens = Math.max(1, options.maxBatchTokens ?? Math.max(options.maxModelLen, 8192));
  const batches: EmbeddingBatch[] = [];
  let current: EmbeddingBatch = { indices: [], inputs: [] };
  let tokens = 0;
  texts.forEach((raw, i) => {
    const text = (raw.length > perInputChars ? raw.slice(0, perInputChars) : raw).trim() || '(empty)';
    const t = estimateTextTokens(text);
    if (current.inputs.length > 0 && (current.inputs.length >= maxInputs || tokens + t > maxTokens)) {
      batches.push(current);
      current = { indices: [], inputs: [] };
      tokens = 0;
    }
    current.indices.push(i);
    current.inputs.push(text);
    tokens += t;
  });
  if (current.inputs.length > 0) batches.push(current);
  return batches;
}

export function normalise(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] ?? 0) ** 2;
  const norm = Math.sqrt(sum) || 1;
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] ?? 0) / norm;
  return out;
}

/** Embeds texts batch by batch (sequentially: embeddings are background work); unit vectors out. */
export async function embedTexts(embed: EmbedFn, model: string, texts: readonly string[], options: EmbeddingBatchOptions & { signal?: AbortSignal }): Promise<Float32Array[]> {
  const out: Float32Array[] = new Array<Float32Array>(texts.length);
  for (const batch of planEmbeddingBatches(texts, options)) {
    const result = await embed({ model, input: batch.inputs }, { signal: options.signal });
    batch.indices.forEach((position, j) => {
      const v = result.embeddings[j];
      if (v) out[position] = normalise(v);
    });
  }
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < n; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

/** Vectors by content hash, for one model; persisted as one binary file. */
export class EmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();

  constructor(readonly model: string) {}

  get size(): number {
    return this.vectors.size;
  }

  get(hash: string): Float32Array | undefined {
    return this.vectors.get(hash);
  }

  set(hash: string, vector: Float32Array): void {
    this.vectors.set(hash, vector);
  }

  /** Keeps only the given hashes (chunks that still exist). */
  retain(hashes: ReadonlySet<string>): void {
    for (const h of this.vectors.keys()) if (!hashes.has(h)) this.vectors.delete(h);
  }

  serialize(): Uint8Array {
    const model = Buffer.from(this.model, 'utf8');
    const dims = this.vectors.values().next().value?.length ?? 0;
    const entries = [...this.vectors].filter(([, v]) => v.length === dims);
    const buf = Buffer.alloc(16 + model.length + entries.length * (HASH_BYTES + dims * 4));
    let o = 0;
    buf.writeUInt32LE(MAGIC, o); o += 4;
    buf.writeUInt32LE(EMBEDDING_CACHE_VERSION, o); o += 4;
    buf.writeUInt32LE(model.length, o); o += 4;
    model.copy(buf, o); o += model.length;
    buf.writeUInt32LE(dims, o); o += 4;
    for (const [hash, v] of entries) {
      Buffer.from(hash, 'hex').copy(buf, o); o += HASH_BYTES;
      for (let i = 0; i < dims; i++) { buf.writeFloatLE(v[i] ?? 0, o); o += 4; }
    }
    return buf;
  }

  /** undefined for a file of another version, another model, or a damaged one. */
  static deserialize(bytes: Uint8Array, model: string): EmbeddingCache | undefined {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    try {
      let o = 0;
      if (buf.readUInt32LE(o) !== MAGIC) return undefined; o += 4;
      if (buf.readUInt32LE(o) !== EMBEDDING_CACHE_VERSION) return undefined; o += 4;
      const modelLen = buf.readUInt32LE(o); o += 4;
      if (buf.toString('utf8', o, o + modelLen) !== model) return undefined; o += modelLen;
      const dims = buf.readUInt32LE(o); o += 4;
      const entry = HASH_BYTES + dims * 4;
      if (dims === 0 ? o !== buf.length : (buf.length - o) % entry !== 0) return undefined;
      const cache = new EmbeddingCache(model);
      while (o < buf.length) {
        const hash = buf.toString('hex', o, o + HASH_BYTES); o += HASH_BYTES;
        const v = new Float32Array(dims);
        for (let i = 0; i < dims; i++) { v[i] = buf.readFloatLE(o); o += 4; }
        cache.set(hash, v);
      }
      return cache;
    } catch {
      return undefined;
    }
  }
}
