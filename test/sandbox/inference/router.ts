import { sendJson, type RequestContext } from '../core/http';
import { DEMO_API_KEY } from '../credentials';
import type { SandboxState } from '../state';
import { handleBatches, isBatchPath } from './batches';
import { handleChat } from './chat';
import { handleEmbeddings } from './embeddings';
import { AUTHENTICATION_ERROR, invalid, modelNotFound, sendInferenceError } from './errors';
import { findModel, MODELS, modelRecord } from './models';
import { handleRerank } from './rerank';
import { handleTranscription } from './transcription';

const POST_ROUTES = new Set(['/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/v1/rerank', '/v2/rerank', '/v1/audio/transcriptions']);

/** True when `path` belongs to the inference API. */
export function isInferencePath(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/') || path === '/v2/rerank';
}

function authorized(header: string | undefined): boolean {
  if (header === undefined) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] === DEMO_API_KEY;
}

/** Every inference route. Rate-limit headers go on every response, errors included. */
export async function handleInference(state: SandboxState, ctx: RequestContext): Promise<void> {
  const headers = state.meter.headers(state.profile);
  if (!authorized(ctx.req.headers.authorization)) {
    sendInferenceError(ctx, AUTHENTICATION_ERROR, headers);
    return;
  }
  const { method, path } = ctx;
  if (path === '/v1/models') {
    if (method !== 'GET') return sendInferenceError(ctx, { ...invalid(`Method ${method} is not allowed on ${path}.`), status: 405 }, { ...headers, Allow: 'GET' });
    sendJson(ctx, 200, { object: 'list', data: MODELS.map((m) => modelRecord(m, state.profile)) }, headers);
    return;
  }
  if (path.startsWith('/v1/models/')) {
    const id = decodeURIComponent(path.slice('/v1/models/'.length));
    const model = findModel(id);
    if (!model) return sendInferenceError(ctx, modelNotFound(id), headers);
    sendJson(ctx, 200, modelRecord(model, state.profile), headers);
    return;
  }
  if (isBatchPath(path)) {
    handleBatches(state, ctx, headers);
    return;
  }
  if (!POST_ROUTES.has(path)) {
    sendInferenceError(ctx, { ...invalid(`Unknown route ${method} ${path}.`), status: 404 }, headers);
    return;
  }
  if (method !== 'POST') {
    sendInferenceError(ctx, { ...invalid(`Method ${method} is not allowed on ${path}.`), status: 405 }, { ...headers, Allow: 'POST' });
    return;
  }
  switch (path) {
    case '/v1/chat/completions':
    case '/v1/completions':
      await handleChat(state, ctx, headers);
      return;
    case '/v1/embeddings':
      handleEmbeddings(state, ctx, headers);
      return;
    case '/v1/rerank':
    case '/v2/rerank':
      handleRerank(state, ctx, headers);
      return;
    default:
      handleTranscription(state, ctx, headers);
  }
}
