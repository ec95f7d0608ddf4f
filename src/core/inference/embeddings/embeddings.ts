import { MalformedResponseError, ValidationError } from '../../errors';
import type { HttpTransport } from '../../http/transport';
import type { CallOptions } from '../shared/call';
import { arr, isRecord, num, str } from '../../json';
import { responseMeta } from '../shared/meta';
import { requireNonEmptyString, requireStringArray } from '../shared/validate';
import type { EmbeddingRequest, EmbeddingResult } from './types';

export const EMBEDDINGS_PATH = '/v1/embeddings';

/**
 * A vector with at least one component, every one a finite number (a `null` or a string would
 * poison a similarity, and an empty vector has no direction).
 */
function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'number' && Number.isFinite(x));
}

export async function embed(
  transport: HttpTransport,
  request: EmbeddingRequest,
  options: CallOptions = {},
): Promise<EmbeddingResult> {
  requireNonEmptyString(request.model, 'model');
  const inputs =
    typeof request.input === 'string'
      ? [request.input]
      : requireStringArray(request.input, 'input');
  if (typeof request.input === 'string' && request.input === '') {
    throw new ValidationError('input must not be empty', 'input');
  }
  const res = await transport.request({
    method: 'POST',
    path: EMBEDDINGS_PATH,
    json: { model: request.model, input: request.input },
    billed: true,
    signal: options.signal,
    ...(options.firstByteTimeoutMs ? { timeouts: { firstByteMs: options.firstByteTimeoutMs } } : {}),
  });
  const body = await res.json();
  const label = `POST ${EMBEDDINGS_PATH}`;
  if (!isRecord(body)) throw new MalformedResponseError(`${label}: the response is not an object`);

  const vectors: Array<number[] | undefined> = new Array<number[] | undefined>(inputs.length);
  arr(body.data).forEach((item, position) => {
    if (!isRecord(item) || !isVector(item.embedding)) return;
    // The contract lets clients order by `index`; fall back to position when it is missing.
    const index = num(item.index) ?? position;
    if (Number.isInteger(index) && index >= 0 && index < inputs.length) vectors[index] = item.embedding;
  });
  const embeddings: number[][] = [];
  for (let i = 0; i < inputs.length; i++) {
    const v = vectors[i];
    if (!v) throw new MalformedResponseError(`${label}: no embedding (a list of numbers) for input ${i}`);
    // Vectors of one model share one length; a shorter one cannot be compared with the others.
    const first = embeddings[0];
    if (first && v.length !== first.length) {
      throw new MalformedResponseError(`${label}: the embedding for input ${i} has length ${v.length}, input 0's has ${first.length}`);
    }
    embeddings.push(v);
  }
  const usage = isRecord(body.usage)
    ? {
        promptTokens: num(body.usage.prompt_tokens) ?? 0,
        totalTokens: num(body.usage.total_tokens) ?? num(body.usage.prompt_tokens) ?? 0,
      }
    : undefined;
  return { embeddings, model: str(body.model), usage, meta: responseMeta(res) };
}
