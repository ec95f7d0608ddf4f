/**
 * The workspace search's embeddings as a batch job (issue 42): the chunks without a vector become
 * `/v1/embeddings` lines (grouped as the interactive pass groups them, each input trimmed to the
 * model's context), and the results become vectors keyed by the content hash of the text sent.
 */
import { estimateTextTokens } from '../../inference/models/tokens';
import type { BatchRequest, BatchResult } from '../../inference/batch/types';
import { estimateJobCost, type JobCostEstimate } from '../../usage/batchCost';
import { planEmbeddingBatches } from './embeddings';
import type { PendingEmbedding } from '../shared/searchTypes';

/** One line of the job: its custom_id and the content hashes of its inputs, in order. */
export interface EmbeddingLine {
  customId: string;
  hashes: string[];
}

export interface EmbeddingsBatchPlan {
  requests: BatchRequest[];
  lines: EmbeddingLine[];
  /** Distinct chunk texts to embed. */
  chunks: number;
  /** Files they come from. */
  files: number;
  estimate: JobCostEstimate;
}

/** The job's lines: embedding inputs only, so no generated tokens (input rate now, batch input rate as a batch). */
export function planEmbeddingsBatch(pending: readonly PendingEmbedding[], model: string, maxModelLen: number): EmbeddingsBatchPlan {
  const groups = planEmbeddingBatches(
    pending.map((p) => p.text),
    { maxModelLen },
  );
  const requests: BatchRequest[] = [];
  const lines: EmbeddingLine[] = [];
  let inputTokens = 0;
  groups.forEach((group, i) => {
    const customId = `emb-${i}`;
    for (const input of group.inputs) inputTokens += estimateTextTokens(input);
    requests.push({ customId, body: { model, input: group.inputs } });
    lines.push({ customId, hashes: group.indices.map((k) => pending[k]?.hash ?? '') });
  });
  return { requests, lines, chunks: pending.length, files: new Set(pending.map((p) => p.path)).size, estimate: estimateJobCost({ inputTokens, outputTokens: 0 }) };
}

/** A line's vectors in input order, or why its answer holds none usable. */
function answerVectors(body: unknown, count: number): Array<ArrayLike<number>> | string {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return 'the answer holds no embeddings';
  const out: Array<ArrayLike<number>> = new Array<ArrayLike<number>>(count);
  for (const entry of data as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { index, embedding } = entry as { index?: unknown; embedding?: unknown };
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) continue;
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((v) => typeof v === 'number' && Number.isFinite(v))) continue;
    out[index] = embedding as number[];
  }
  for (let i = 0; i < count; i++) if (out[i] === undefined) return `the answer lacks the vector of input ${i + 1}`;
  return out;
}

/**
 * The vectors of one answered line, by content hash (a line whose answer is not whole gives
 * none: its reason instead).
 */
export function lineVectors(line: EmbeddingLine, body: unknown): { vectors: Array<{ hash: string; vector: Float32Array }> } | { error: string } {
  const vectors = answerVectors(body, line.hashes.length);
  if (typeof vectors === 'string') return { error: vectors };
  return { vectors: line.hashes.map((hash, i) => ({ hash, vector: Float32Array.from(vectors[i] ?? []) })) };
}

/** What storing a job's vectors did. */
export interface EmbeddingsApplied {
  /** Vectors stored (their text is in the index now). */
  stored: number;
  /** Vectors dropped: their chunk's file changed since it was sent. */
  stale: number;
  /** Lines without vectors (answered with an error, unusable, or missing), with why; their chunks stay without. */
  failed: Array<{ customId: string; chunks: number; message: string }>;
}

/**
 * Collects the vectors of a job's results (`add` each result as it is read), then stores them in
 * one call: only whole lines count, a failed line is listed with its reason.
 */
export class EmbeddingResults {
  private readonly byId: Map<string, EmbeddingLine>;
  private readonly vectors: Array<{ hash: string; vector: Float32Array }> = [];
  private readonly failed: EmbeddingsApplied['failed'] = [];

  constructor(lines: readonly EmbeddingLine[]) {
    this.byId = new Map(lines.map((l) => [l.customId, l]));
  }

  add(result: BatchResult): void {
    const line = this.byId.get(result.customId);
    if (!line) return;
    if (!result.ok) return this.fail(line, result.message);
    const got = lineVectors(line, result.body);
    if ('error' in got) return this.fail(line, got.error);
    this.vectors.push(...got.vectors);
  }

  /** A line answered by an interactive call (the job run now): its vectors in input order. */
  addAnswer(customId: string, embeddings: ReadonlyArray<readonly number[]>): void {
    this.add({ customId, ok: true, statusCode: 200, body: { data: embeddings.map((embedding, index) => ({ index, embedding })) } });
  }

  private fail(line: EmbeddingLine, message: string): void {
    this.failed.push({ customId: line.customId, chunks: line.hashes.length, message });
  }

  /** Stores the vectors collected in one call; the lines with no result at all (`missing`) are listed as failed. */
  async store(store: (vectors: ReadonlyArray<{ hash: string; vector: Float32Array }>) => Promise<{ stored: number; stale: number }>, missing: readonly string[]): Promise<EmbeddingsApplied> {
    for (const id of missing) {
      const line = this.byId.get(id);
      if (line) this.fail(line, 'no result came back for it');
    }
    const counts = this.vectors.length > 0 ? await store(this.vectors) : { stored: 0, stale: 0 };
    return { ...counts, failed: this.failed };
  }
}
