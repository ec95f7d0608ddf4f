import { CancelledError } from '../errors';
import type { ModelInfo } from '../inference/models/types';
import { contentHash, dot, EmbeddingCache, embedTexts } from './embeddings';
import type { IndexStorage, SearchFileSystem } from './files';
import { reciprocalRankFusion } from './fusion';
import type { ChunkMeta, LexicalHit } from './indexTypes';
import type { LexicalIndex } from './lexical';
import { rerankDocuments } from './rerank';
import type { SearchHit, SearchInference, SearchNote, SearchResult, SearchSettings } from './searchTypes';

export function embeddingsFile(model: string): string {
  return `search-embeddings-${model.replace(/[^A-Za-z0-9._-]+/g, '_')}.bin`;
}

export function toHit(h: LexicalHit, i: number): SearchHit {
  return { id: h.id, path: h.path, startLine: h.startLine, endLine: h.endLine, preview: h.preview, localRank: i + 1 };
}

export interface RankerOptions {
  index: () => LexicalIndex;
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
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
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
    const { signal } = options;
    const settings = this.options.settings();
    const notes: SearchNote[] = [];
    if (!this.options.ready()) notes.push({ kind: 'index_not_ready' });
    const lexicalHits = this.index.search(query, settings.candidates);
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
    const localHits = local.slice(0, settings.candidates).map((h, i) => toHit(h, i));
    options.onLocal?.(localHits);
    const base: SearchResult = { query, hits: localHits.slice(0, settings.results), reranked: false, notes, candidates: localHits.length, searchUnits: 0 };
    if (localHits.length === 0) return base;
    if (!settings.rerank.enabled) return { ...base, notes: [...notes, { kind: 'rerank_disabled' }] };
    if (!inference) return { ...base, notes: [...notes, { kind: 'no_rerank_model' }] };

    let model: ModelInfo | undefined;
    try {
      const models = await inference.listModels(signal);
      model = settings.rerank.model
        ? models.find((m) => m.id === settings.rerank.model || m.aliases.includes(settings.rerank.model))
        : models.find((m) => m.kind === 'rerank');
      if (!model && settings.rerank.model) {
        // Not listed: try it anyway with a conservative context; a 404 falls back below.
        model = { id: settings.rerank.model, kind: 'rerank', aliases: [], maxModelLen: 512, created: undefined, ownedBy: undefined, root: undefined };
      }
    } catch (error) {
      if (signal?.aborted) throw new CancelledError();
      return { ...base, notes: [...notes, { kind: 'rerank_failed', error }] };
    }
    if (!model) return { ...base, notes: [...notes, { kind: 'no_rerank_model' }] };

    const documents = await this.documentsFor(localHits);
    const outcome = await rerankDocuments(
      inference.rerank,
      query,
      documents,
      {
        model: model.id,
        maxModelLen: model.maxModelLen ?? 512,
        version: settings.rerank.version,
        topN: settings.results,
        batchSize: settings.rerank.batchSize,
        concurrency: settings.rerank.concurrency,
        timeoutMs: settings.rerank.timeoutMs,
        setTimer: this.options.setTimer,
      },
      signal,
    );
    if (!outcome.ok) {
      const note: SearchNote =
        outcome.reason === 'timeout' ? { kind: 'rerank_timeout', timeoutMs: outcome.timeoutMs } : outcome.reason === 'query_too_long' ? { kind: 'query_too_long' } : { kind: 'rerank_failed', error: outcome.error };
      return { ...base, notes: [...notes, note] };
    }
    const hits: SearchHit[] = [];
    const seen = new Set<number>();
    for (const s of outcome.scores) {
      const h = localHits[s.index];
      if (!h || seen.has(s.index)) continue;
      seen.add(s.index);
      hits.push({ ...h, rerankScore: s.score });
    }
    // Whatever the reranker did not return keeps its local order after the reranked ones.
    for (let i = 0; i < localHits.length && hits.length < settings.results; i++) {
      const h = localHits[i];
      if (h && !seen.has(i)) hits.push(h);
    }
    return { query, hits: hits.slice(0, settings.results), reranked: true, notes, candidates: localHits.length, searchUnits: outcome.searchUnits };
  }

  /** The text of each hit's line range, read from the file (the preview when unreadable). */
  async documentsFor(hits: readonly SearchHit[]): Promise<string[]> {
    const byPath = new Map<string, string[] | undefined>();
    await Promise.all(
      [...new Set(hits.map((h) => h.path))].map(async (path) => {
        try {
          byPath.set(path, this.decoder.decode(await this.options.fs.read(path, this.options.settings().maxFileSizeBytes)).split(/\r?\n/));
        } catch {
          byPath.set(path, undefined);
        }
      }),
    );
    return hits.map((h) => {
      const lines = byPath.get(h.path);
      const body = lines ? lines.slice(h.startLine - 1, h.endLine).join('\n') : h.preview;
      return `${h.path}\n${body}`;
    });
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
      out.push(lexicalById.get(key) ?? { id: key, score, ...meta });
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
    // Chunks indexed since the last embedding pass have no hash yet: read them once to get it.
    const unhashed: Array<{ id: number; meta: ChunkMeta }> = [];
    for (const [id, meta] of this.index.allChunks()) if (meta.hash === '') unhashed.push({ id, meta });
    const texts = new Map<string, string>();
    if (unhashed.length > 0) {
      const bodies = await this.documentsFor(unhashed.map(({ id, meta }, i) => ({ id, path: meta.path, startLine: meta.startLine, endLine: meta.endLine, preview: meta.preview, localRank: i + 1 })));
      unhashed.forEach(({ meta }, i) => {
        const text = bodies[i] ?? '';
        meta.hash = contentHash(text);
        texts.set(meta.hash, text);
      });
    }
    const missing = new Map<string, ChunkMeta>();
    for (const [, meta] of this.index.allChunks()) if (!cache.get(meta.hash) && !missing.has(meta.hash)) missing.set(meta.hash, meta);
    if (missing.size === 0) return 0;
    const entries = [...missing];
    const absent = entries.filter(([hash]) => !texts.has(hash));
    if (absent.length > 0) {
      const bodies = await this.documentsFor(absent.map(([, m], i) => ({ id: 0, path: m.path, startLine: m.startLine, endLine: m.endLine, preview: m.preview, localRank: i + 1 })));
      absent.forEach(([hash], i) => texts.set(hash, bodies[i] ?? ''));
    }
    const vectors = await embedTexts(inference.embed, cache.model, entries.map(([hash]) => texts.get(hash) ?? ''), { maxModelLen, signal });
    entries.forEach(([hash], i) => {
      const v = vectors[i];
      if (v) cache.set(hash, v);
    });
    cache.retain(new Set([...this.index.allChunks()].map(([, c]) => c.hash)));
    await this.options.save();
    return entries.length;
  }

}
