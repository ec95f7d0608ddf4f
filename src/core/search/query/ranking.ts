import { CancelledError } from '../../errors';
import { contentHash, dot, EmbeddingCache, embedTexts, normalise } from './embeddings';
import type { IndexStorage, SearchFileSystem } from '../shared/files';
import { reciprocalRankFusion } from './fusion';
import type { ChunkMeta, LexicalHit } from '../shared/indexTypes';
import type { LexicalIndex } from '../lexical/lexical';
import { readDocuments, rerankStage, type LocalCandidates } from './rerankStage';
import type { PendingEmbedding, SearchHit, SearchInference, SearchNote, SearchResult, SearchSettings } from '../shared/searchTypes';

export function embeddingsFile(model: string): string {
  return `search-embeddings-${model.replace(/[^A-Za-z0-9._-]+/g, '_')}.bin`;
}

export function toHit(h: LexicalHit, i: number): SearchHit {
  return { id: h.id, path: h.path, startLine: h.startLine, endLine: h.endLine, preview: h.preview, localRank: i + 1 };
}

export interface RankerOptions {
  index: () => LexicalIndex;
  /** The lexical search (the engine's, guarded against a damaged segment). */
  lexical: (query: string, limit: number) => LexicalHit[];
  /** Whether the index is complete (a note says when it is not). */
  ready: () => boolean;
  fs: SearchFileSystem;
  storage?: IndexStorage;
  settings: () => SearchSettings;
  inference?: () => SearchInference | undefined;
  setTimer: (ms: number, fire: () => void) => () => void;
  /** Persists the index and the embeddings (after an embedding pass). */
  save: () => Promise<void>;
}

/**
 * The ranking stages over the lexical index: local candidates (fused with embeddings when a model
 * is configured), then the rerank model's order, with a note for every fallback.
 */
export class Ranker {
  /** The embedding vectors of the configured model, by chunk content hash (loaded on first use). */
  embeddings: EmbeddingCache | undefined;

  constructor(private readonly options: RankerOptions) {}

  private get index(): LexicalIndex {
    return this.options.index();
  }

  /**
   * Local candidates (lexical, fused with embeddings when configured), then the rerank model's
   * order. Degrades to the local order with a note, never to an empty answer; throws only
   * CancelledError (the caller's signal).
   */
  async search(query: string, options: { signal?: AbortSignal; onLocal?: (hits: SearchHit[]) => void } = {}): Promise<SearchResult> {
    const local = await this.local(query, options.signal);
    options.onLocal?.(local.hits);
    const inference = this.options.inference?.();
    return rerankStage(query, local, { settings: this.options.settings(), inference, setTimer: this.options.setTimer, documentsFor: (hits) => this.documentsFor(hits) }, options.signal);
  }

  /**
   * The local stage: lexical candidates (`candidates` of them), fused with as many embedding
   * candidates when a model is configured: their union, in reciprocal rank fusion order, up to
   * twice `candidates`, all handed to rerank.
   */
  async local(query: string, signal?: AbortSignal): Promise<LocalCandidates> {
    const settings = this.options.settings();
    const notes: SearchNote[] = [];
    if (!this.options.ready()) notes.push({ kind: 'index_not_ready' });
    const lexicalHits = this.options.lexical(query, settings.candidates);
    let local: LexicalHit[] = lexicalHits;
    const inference = this.options.inference?.();
    if (settings.embeddingModel && inference) {
      try {
        local = await this.hybrid(inference, query, lexicalHits, settings, signal);
      } catch (error) {
        if (signal?.aborted) throw new CancelledError();
        notes.push({ kind: 'embeddings_failed', error });
      }
    }
    // With embeddings, the union of both lists goes on whole (issue 41): cut to `candidates`, the
    // fused order dropped whatever only one list found low, often the answer only one of them saw.
    return { hits: local.map((h, i) => toHit(h, i)), notes };
  }

  /** The text of each hit's line range, read from the file (the preview when unreadable). */
  documentsFor(hits: readonly SearchHit[]): Promise<string[]> {
    return readDocuments(this.options.fs, this.options.settings().maxFileSizeBytes, hits);
  }

  // ---- embeddings ----------------------------------------------------------------------------

  private async hybrid(inference: SearchInference, query: string, lexicalHits: LexicalHit[], settings: SearchSettings, signal: AbortSignal | undefined): Promise<LexicalHit[]> {
    const models = await inference.listModels(signal);
    const model = models.find((m) => m.id === settings.embeddingModel || m.aliases.includes(settings.embeddingModel));
    const maxModelLen = model?.maxModelLen ?? 512;
    const cache = await this.embeddingCache(settings.embeddingModel);
    await this.embedMissing(inference, cache, maxModelLen, signal);
    const [q] = await embedTexts(inference.embed, settings.embeddingModel, [query], { maxModelLen, signal });
    if (!q) return lexicalHits;
    const scored: Array<{ id: number; score: number }> = [];
    for (const [id, c] of this.index.allChunks()) {
      const v = cache.get(c.hash);
      if (v) scored.push({ id, score: dot(q, v) });
    }
    scored.sort((a, b) => b.score - a.score);
    const vectorIds = scored.slice(0, settings.candidates).map((s) => s.id);
    const fused = reciprocalRankFusion([lexicalHits.map((h) => h.id), vectorIds]);
    const lexicalById = new Map(lexicalHits.map((h) => [h.id, h]));
    const out: LexicalHit[] = [];
    for (const { key, score } of fused) {
      const meta = this.index.chunk(key);
      if (!meta) continue;
      out.push(lexicalById.get(key) ?? { id: key, score, path: meta.path, startLine: meta.startLine, endLine: meta.endLine, preview: meta.preview, hash: meta.hash });
    }
    return out;
  }

  private async embeddingCache(model: string): Promise<EmbeddingCache> {
    if (this.embeddings?.model === model) return this.embeddings;
    const stored = await this.options.storage?.read(embeddingsFile(model));
    this.embeddings = (stored && EmbeddingCache.deserialize(stored, model)) || new EmbeddingCache(model);
    return this.embeddings;
  }

  /** Embeds the chunks whose text has no vector yet (cached by content hash, persisted). */
  async embedMissing(inference: SearchInference, cache: EmbeddingCache, maxModelLen: number, signal?: AbortSignal): Promise<number> {
    const pending = await this.missingIn(cache);
    if (pending.length === 0) return 0;
    const vectors = await embedTexts(inference.embed, cache.model, pending.map((p) => p.text), { maxModelLen, signal });
    pending.forEach(({ hash }, i) => {
      const v = vectors[i];
      if (v) cache.set(hash, v);
    });
    cache.retain(new Set([...this.index.allChunks()].map(([, c]) => c.hash)));
    await this.options.save();
    return pending.length;
  }

  /** The chunks without a vector of `model` (one per distinct text), to embed elsewhere (a batch job). */
  async pendingEmbeddings(model: string): Promise<PendingEmbedding[]> {
    return this.missingIn(await this.embeddingCache(model));
  }

  /**
   * Stores vectors of `model` computed elsewhere (a batch job), each keyed by the content hash of
   * the text it was computed from: a vector whose text no chunk holds any more (its file changed
   * since it was sent) is stale and dropped, never stored.
   */
  async storeEmbeddings(model: string, vectors: ReadonlyArray<{ hash: string; vector: Float32Array }>): Promise<{ stored: number; stale: number }> {
    const cache = await this.embeddingCache(model);
    // Chunks indexed since (a changed file) are hashed from their text now.
    await this.hashUnhashed(this.index);
    const live = new Set([...this.index.allChunks()].map(([, c]) => c.hash));
    let stored = 0;
    for (const { hash, vector } of vectors) {
      if (!live.has(hash)) continue;
      cache.set(hash, normalise(vector));
      stored += 1;
    }
    cache.retain(live);
    await this.options.save();
    return { stored, stale: vectors.length - stored };
  }

  /** Reads every chunk without a content hash yet and sets it; their texts by hash. */
  private async hashUnhashed(index: LexicalIndex): Promise<Map<string, string>> {
    const unhashed: Array<{ id: number; meta: ChunkMeta }> = [];
    for (const [id, meta] of index.allChunks()) if (meta.hash === '') unhashed.push({ id, meta });
    const texts = new Map<string, string>();
    if (unhashed.length === 0) return texts;
    const bodies = await this.documentsFor(unhashed.map(({ id, meta }, i) => ({ id, path: meta.path, startLine: meta.startLine, endLine: meta.endLine, preview: meta.preview, localRank: i + 1 })));
    unhashed.forEach(({ id }, i) => {
      const text = bodies[i] ?? '';
      const hash = contentHash(text);
      index.setHash(id, hash);
      texts.set(hash, text);
    });
    return texts;
  }

  /**
   * The chunks whose text has no vector in `cache`, each keyed by the hash of the text read now: a
   * chunk whose file changed since it was hashed (its events not applied yet) is left out.
   */
  private async missingIn(cache: EmbeddingCache): Promise<PendingEmbedding[]> {
    // Chunks indexed since the last embedding pass have no hash yet: read them once to get it.
    // One index throughout (a save may swap in the merged one, whose ids differ, meanwhile).
    const index = this.index;
    const texts = await this.hashUnhashed(index);
    const missing = new Map<string, ChunkMeta>();
    for (const [, meta] of index.allChunks()) if (!cache.get(meta.hash) && !missing.has(meta.hash)) missing.set(meta.hash, meta);
    const entries = [...missing];
    const absent = entries.filter(([hash]) => !texts.has(hash));
    if (absent.length > 0) {
      const bodies = await this.documentsFor(absent.map(([, m], i) => ({ id: 0, path: m.path, startLine: m.startLine, endLine: m.endLine, preview: m.preview, localRank: i + 1 })));
      absent.forEach(([hash], i) => {
        const text = bodies[i] ?? '';
        if (contentHash(text) === hash) texts.set(hash, text);
      });
    }
    const out: PendingEmbedding[] = [];
    for (const [hash, meta] of entries) {
      const text = texts.get(hash);
      if (text !== undefined) out.push({ hash, path: meta.path, text });
    }
    return out;
  }
}
