import { sendJson, parseJsonBody, type Headers, type RequestContext } from '../core/http';
import { shortHash } from '../core/ids';
import type { SandboxState } from '../state';
import { parseChatRequest, type ChatRequest } from './chatRequest';
import { invalid, isInferenceError, rateLimited, sendInferenceError, type InferenceError } from './errors';
import { familyReply } from './familyModels';
import { ocrReply } from './ocr';
import { completionTokens, reasoningTokensOf, scriptReply, type ScriptedReply } from './script';
import { writeSse } from './sse';

/** Size of the slices tool-call arguments are cut into when streamed. */
export const ARGUMENT_SLICE = 5;
/** Size of the slices reasoning sent apart (`reasoning_content`) is cut into when streamed. */
const REASONING_SLICE = 9;

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [extra: string]: unknown;
}

function usageOf(state: SandboxState, request: ChatRequest, reply: ScriptedReply): Usage {
  const completion = completionTokens(reply);
  const usage: Usage = { prompt_tokens: request.promptTokens, completion_tokens: completion, total_tokens: request.promptTokens + completion };
  if (state.profile === 'production') {
    const reasoning = reasoningTokensOf(reply);
    usage.reasoning_tokens = reasoning;
    usage.completion_tokens_details = { reasoning_tokens: reasoning };
    usage.prompt_tokens_details = null;
  }
  const cached = state.promptCache.lookup(request);
  if (cached > 0 && state.profile === 'production') usage.prompt_tokens_details = { cached_tokens: cached };
  else if (cached > 0) usage.cached_tokens = cached;
  return usage;
}

function finishReason(reply: ScriptedReply): string {
  return reply.kind === 'tool_calls' ? 'tool_calls' : reply.finishReason;
}

function completionBody(state: SandboxState, id: string, created: number, request: ChatRequest, reply: ScriptedReply, usage: Usage): Record<string, unknown> {
  const message: Record<string, unknown> =
    reply.kind === 'tool_calls'
      ? { role: 'assistant', content: null, tool_calls: reply.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
      : { role: 'assistant', content: reply.content };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  const choice: Record<string, unknown> = { index: 0, message, finish_reason: finishReason(reply) };
  const body: Record<string, unknown> = { id, object: 'chat.completion', created, model: request.model.id, choices: [choice], usage };
  if (state.profile === 'production') {
    choice.logprobs = null;
    choice.stop_reason = null;
    body.system_fingerprint = 'fp_sandbox';
    body.prompt_logprobs = null;
  }
  return body;
}

function* streamEvents(state: SandboxState, id: string, created: number, request: ChatRequest, reply: ScriptedReply, usage: Usage): Generator<string> {
  const production = state.profile === 'production';
  const chunk = (delta: Record<string, unknown>, finish: string | null): string => {
    const choice: Record<string, unknown> = { index: 0, delta, finish_reason: finish };
    if (production) {
      choice.logprobs = null;
      choice.stop_reason = null;
    }
    const body: Record<string, unknown> = { id, object: 'chat.completion.chunk', created, model: request.model.id, choices: [choice] };
    if (production) body.system_fingerprint = 'fp_sandbox';
    return JSON.stringify(body);
  };
  yield chunk({ role: 'assistant', content: '' }, null);
  const reasoning = reply.reasoning ?? '';
  for (let at = 0; at < reasoning.length; at += REASONING_SLICE) yield chunk({ reasoning_content: reasoning.slice(at, at + REASONING_SLICE) }, null);
  if (reply.kind === 'text') {
    for (const piece of reply.pieces) yield chunk({ content: piece }, null);
  } else {
    for (const [index, call] of reply.calls.entries()) {
      yield chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, null);
      for (let at = 0; at < call.arguments.length; at += ARGUMENT_SLICE) {
        yield chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(at, at + ARGUMENT_SLICE) } }] }, null);
      }
    }
  }
  yield chunk({ content: '' }, finishReason(reply));
  if (production || request.includeUsage) {
    const body: Record<string, unknown> = { id, object: 'chat.completion.chunk', created, model: request.model.id, choices: [], usage };
    if (production) body.system_fingerprint = 'fp_sandbox';
    yield JSON.stringify(body);
  }
  yield '[DONE]';
}

/**
 * The whole (not streamed) answer to one chat body, or its error: a batch line
 * (inference/batches.ts). Batch work does not count against the hourly output-token budget.
 */
export function chatAnswer(state: SandboxState, body: unknown): Record<string, unknown> | InferenceError {
  const request = parseChatRequest(body);
  if (isInferenceError(request)) return request;
  const seed = shortHash(JSON.stringify([request.model.id, request.messages, request.tools, request.toolChoice]), 32);
  const id = `chatcmpl-${shortHash(`${state.nextSeq()}:${seed}`, 29)}`;
  const ocr = request.model.kind === 'ocr' ? ocrReply(state, request) : undefined;
  if (ocr?.kind === 'fault') return ocr.error;
  const reply = ocr?.reply ?? familyReply(request, scriptReply(request, seed));
  return completionBody(state, id, state.clock.nowSeconds(), request, reply, usageOf(state, request, reply));
}

/** POST /v1/chat/completions and POST /v1/completions (identical bodies and responses). */
export async function handleChat(state: SandboxState, ctx: RequestContext, headers: Headers): Promise<void> {
  if (state.meter.exhausted()) {
    sendInferenceError(ctx, rateLimited('Output-token limit of your tier reached. Retry later or move to a higher tier.'), {
      ...headers,
      'Retry-After': state.meter.retryAfterSeconds(),
    });
    return;
  }
  const body = parseJsonBody(ctx);
  if (!body.ok) {
    sendInferenceError(ctx, invalid(body.reason === 'empty' ? 'The request body is empty; send a JSON object.' : 'The request body is not valid JSON.'), headers);
    return;
  }
  const request = parseChatRequest(body.value);
  if (isInferenceError(request)) {
    sendInferenceError(ctx, request, headers);
    return;
  }
  // Call ids depend on the conversation only (not on stream, temperature...).
  const seed = shortHash(JSON.stringify([request.model.id, request.messages, request.tools, request.toolChoice]), 32);
  const id = `chatcmpl-${shortHash(`${state.nextSeq()}:${seed}`, 29)}`;
  const created = state.clock.nowSeconds();
  // The OCR model reads the marker its image carries (ocr.ts), or a page's scripted fault answers.
  const ocr = request.model.kind === 'ocr' ? ocrReply(state, request) : undefined;
  if (ocr?.kind === 'fault') {
    sendInferenceError(ctx, ocr.error, { ...headers, ...ocr.headers });
    return;
  }
  const reply = ocr?.reply ?? familyReply(request, scriptReply(request, seed));
  const usage = usageOf(state, request, reply);
  state.meter.consume(usage.completion_tokens);
  // The budget headers reflect this request's output tokens.
  const after = { ...headers, ...state.meter.headers(state.profile) };
  if (!request.stream) {
    sendJson(ctx, 200, completionBody(state, id, created, request, reply, usage), after);
    return;
  }
  if (reply.kind === 'text' && reply.completion) state.completions.add(request.model.id, reply.pieces.length, ctx.record);
  const fault = state.faults.takeStreamFault(ctx.path);
  await writeSse(ctx, state.clock, streamEvents(state, id, created, request, reply, usage), fault, after);
}
