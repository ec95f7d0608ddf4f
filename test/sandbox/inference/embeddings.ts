import { sendJson, type Headers, type RequestContext } from '../core/http';
import { fnv1a } from '../core/ids';
import { isRecord, isString, optional } from '../core/json';
import type { SandboxState } from '../state';
import { invalid, modelNotFound, parseRequest, type InferenceError } from './errors';
import { findModel, type ModelSpec } from './models';
import { estimateTokens, words } from './tokens';

export const MAX_EMBEDDING_INPUTS = 2048;

/**
 * Deterministic embedding: a hashed bag of words. Each lower-cased word adds ±1 at
 * index fnv1a(word) mod dim (sign from a second hash), then the vector is L2-normalised (values
 * rounded to float32). Texts sharing words have a positive cosine similarity; identical texts
 * give identical vectors. A text without any word maps to the unit vector e0.
 */
export function embed(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of words(text)) {
    const index = fnv1a(word) % dimensions;
    const sign = fnv1a(word, 0x9e3779b9) & 1 ? 1 : -1;
    vector[index] = (vector[index] ?? 0) + sign;
  }
  const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((v) => Math.fround(v / norm));
}

function float32Base64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

type Parsed = { model: ModelSpec; inputs: string[]; format: 'float' | 'base64' };

function parse(body: unknown): Parsed | InferenceError {
  if (!isRecord(body)) return invalid('The request body must be a JSON object.');
  const modelId = body.model;
  if (!isString(modelId) || modelId.length === 0) return invalid(`'model' is required and must be a string.`, 'model');
  const model = findModel(modelId);
  if (!model) return modelNotFound(modelId);
  if (model.kind !== 'embedding') return invalid(`The model '${model.id}' is not an embedding model.`, 'model');
  const input = body.input;
  let inputs: string[];
  if (isString(input)) inputs = [input];
  else if (Array.isArray(input) && input.length > 0 && input.every(isString)) inputs = input;
  else if (typeof input === 'number' || (Array.isArray(input) && input.length > 0 && input.every((x) => typeof x === 'number' || Array.isArray(x)))) {
    return invalid('Token ids are not accepted as input; send raw text (a string or an array of strings).', 'input');
  } else return invalid(`'input' is required: a string or a non-empty array of strings.`, 'input');
  if (inputs.length > MAX_EMBEDDING_INPUTS) return invalid(`'input' may hold at most ${MAX_EMBEDDING_INPUTS} texts.`, 'input');
  const emptyAt = inputs.findIndex((text) => text.length === 0);
  if (emptyAt >= 0) return invalid(`input[${emptyAt}] is an empty string.`, 'input');
  const tooLong = inputs.findIndex((text) => estimateTokens(text) > model.maxModelLen);
  if (tooLong >= 0) return invalid(`input[${tooLong}] is longer than the model's maximum context length (${model.maxModelLen} tokens).`, 'input');
  const format = optional(body, 'encoding_format') ?? 'float';
  if (format !== 'float' && format !== 'base64') return invalid(`'encoding_format' must be 'float' or 'base64'.`, 'encoding_format');
  return { model, inputs, format };
}

/** POST /v1/embeddings */
export function handleEmbeddings(state: SandboxState, ctx: RequestContext, headers: Headers): void {
  const parsed = parseRequest(ctx, headers, parse);
  if (!parsed) return;
  sendJson(ctx, 200, embeddingsBody(state, parsed), headers);
}

/** The answer to one embeddings body, or its error (a batch line: inference/batches.ts). */
export function embeddingsAnswer(state: SandboxState, body: unknown): Record<string, unknown> | InferenceError {
  const parsed = parse(body);
  return 'status' in parsed ? parsed : embeddingsBody(state, parsed);
}

function embeddingsBody(state: SandboxState, parsed: Parsed): Record<string, unknown> {
  const dimensions = parsed.model.dimensions ?? 256;
  const data = parsed.inputs.map((text, index) => {
    const vector = embed(text, dimensions);
    return { object: 'embedding', index, embedding: parsed.format === 'base64' ? float32Base64(vector) : vector };
  });
  const tokens = parsed.inputs.reduce((sum, text) => sum + estimateTokens(text), 0);
  const response: Record<string, unknown> = { object: 'list', data, model: parsed.model.id, usage: { prompt_tokens: tokens, total_tokens: tokens } };
  if (state.profile === 'production') {
    response.id = `embd-${state.nextSeq()}`;
    response.created = state.clock.nowSeconds();
  }
  return response;
}
