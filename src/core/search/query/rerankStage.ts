import { CancelledError } from '../../errors';
import type { ModelInfo } from '../../inference/models/types';
import type { SearchFileSystem } from '../shared/files';
import { decodeFileText } from '../text/fileText';
import { rerankDocuments } from './rerank';
import type { SearchHit, SearchInference, SearchNote, SearchResult, SearchSettings } from '../shared/searchTypes';

/** What the local stage found: candidates in local order, and what degraded there. */
export interface LocalCandidates {
  hits: SearchHit[];
  notes: SearchNote[];
}

export interface RerankStageOptions {
  settings: SearchSettings;
  inference: SearchInference | undefined;
  setTimer: (ms: number, fire: () => void) => () => void;
  documentsFor: (hits: readonly SearchHit[]) => Promise<string[]>;
}

/**
 * The rerank model's order over the local candidates; the local order with a note when there is
 * no model, reranking is off, fails or is too slow. Throws only CancelledError (the signal).
 */
export async function rerankStage(query: string, local: LocalCandidates, options: RerankStageOptions, signal: AbortSignal | undefined): Promise<SearchResult> {
  const { settings, inference } = options;
  const { hits: localHits, notes } = local;
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

  const documents = await options.documentsFor(localHits);
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
      setTimer: options.setTimer,
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
export async function readDocuments(fs: SearchFileSystem, maxBytes: number, hits: readonly SearchHit[]): Promise<string[]> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const byPath = new Map<string, string[] | undefined>();
  await Promise.all(
    [...new Set(hits.map((h) => h.path))].map(async (path) => {
      try {
        byPath.set(path, decodeFileText(await fs.read(path, maxBytes), decoder).split(/\r\n|\r|\n/));
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
