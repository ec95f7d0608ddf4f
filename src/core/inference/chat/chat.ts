import type { HttpTransport } from '../../http/transport';
import type { HttpResponse } from '../../http/types';
import { callFeature, callTransport, type CallOptions } from '../shared/call';
import { usesHarmonyFormat } from '../models/reasoningEffort';
import { mergeUnder } from '../shared/extraBody';
import { responseMeta } from '../shared/meta';
import { parseChatCompletion } from './completion';
import { iterateSse, readSse } from './sse';
import { OfferedTools } from './offeredTools';
import { ChatStreamDecoder } from './streamDecoder';
import type { ChatRequest, ChatResult, ChatStreamEvent } from './types';
import { buildChatBody } from './validate';

export const CHAT_PATH = '/v1/chat/completions';

/**
 * A non-streamed answer arrives only once fully generated, so its first byte can take minutes:
 * the default time-to-first-byte for it is longer than the transport's.
 */
export const NON_STREAMED_FIRST_BYTE_MS = 300_000;

/** Recovery of tool calls printed as text, for a streamed or a whole answer. */
export interface TextCallOptions {
  /** Recover tool calls the model prints as text instead of `tool_calls` (default on; a setting turns it off per model). */
  textToolCalls?: boolean;
  /** Told, in one line, each time such a call is recovered. */
  onTextToolCall?: (line: string) => void;
}

export interface ChatStreamOptions extends CallOptions, TextCallOptions {
  /**
   * Ask for the final usage chunk with `stream_options: {include_usage: true}`. Not in the
   * contract (production sends usage unasked), so it is opt-in; OpenAI-style servers accept it.
   */
  includeUsage?: boolean;
}

/** The tools a call printed as text may name: those offered, unless recovery is off or tools are refused. */
function textCallTools(request: ChatRequest, options: TextCallOptions): OfferedTools | undefined {
  if (options.textToolCalls === false || !request.tools?.length || request.tool_choice === 'none') return undefined;
  return new OfferedTools(request.tools);
}

/** A streamed answer. Nothing is sent until it is consumed, once, by one of the two ways. */
export interface ChatStream extends AsyncIterable<ChatStreamEvent> {
  /**
   * Reads the whole stream, calling `onEvent` synchronously for each delta (no promise per
   * event: the fastest way), and resolves with the assembled result. An exception thrown by
   * `onEvent` stops the stream (the connection is closed) and rejects with that same error.
   * A failure after visible text or tool-call deltas arrived is an InterruptedError.
   */
  consume(onEvent?: (event: ChatStreamEvent) => void): Promise<ChatResult>;
}

/** POST a chat request and wait for the whole answer. Throws ValidationError before sending. */
export async function chat(
  transport: HttpTransport,
  request: ChatRequest,
  options: CallOptions & TextCallOptions = {},
  path: string = CHAT_PATH,
): Promise<ChatResult> {
  const body = mergeUnder(buildChatBody(request, false), options.extraBody ?? []);
  const res = await transport.request({
    method: 'POST',
    path,
    json: body,
    billed: true,
    signal: options.signal,
    ...callTransport(options, { firstByteTimeoutMs: NON_STREAMED_FIRST_BYTE_MS }),
    ...callFeature(options),
  });
  const textCalls = { tools: textCallTools(request, options), harmony: usesHarmonyFormat(request.model), ...(options.onTextToolCall ? { log: options.onTextToolCall } : {}) };
  return parseChatCompletion(await res.json(), responseMeta(res), `POST ${path}`, textCalls);
}

/**
 * Streams a chat answer as typed deltas. The request is validated now (ValidationError is thrown
 * synchronously) and sent when the stream is first consumed.
 */
export function chatStream(
  transport: HttpTransport,
  request: ChatRequest,
  options: ChatStreamOptions = {},
  path: string = CHAT_PATH,
): ChatStream {
  const body = mergeUnder(buildChatBody(request, true), options.extraBody ?? []);
  if (options.includeUsage) body.stream_options = { include_usage: true };
  const label = `POST ${path}`;
  let consumed = false;
  const open = (): Promise<HttpResponse> => {
    if (consumed) return Promise.reject(new Error('A chat stream can be consumed only once'));
    consumed = true;
    return transport.request({
      method: 'POST',
      path,
      json: body,
      billed: true,
      signal: options.signal,
      streaming: true,
      ...callTransport(options),
      ...callFeature(options),
    });
  };
  const tools = textCallTools(request, options);
  const decoderFor = (res: HttpResponse, emit: (e: ChatStreamEvent) => void): ChatStreamDecoder =>
    new ChatStreamDecoder(emit, {
      label,
      meta: responseMeta(res),
      redact: (t) => transport.redact(t),
      ...(tools ? { textCallTools: tools } : {}),
      harmony: usesHarmonyFormat(request.model),
      ...(options.onTextToolCall ? { log: options.onTextToolCall } : {}),
    });

  return {
    async consume(onEvent) {
      const res = await open();
      const emit = onEvent ?? ((): void => undefined);
      const result = await readSse(res, decoderFor(res, emit));
      emit({ type: 'done', result });
      return result;
    },
    [Symbol.asyncIterator]: () =>
      iterateSse<ChatStreamEvent, ChatResult>(open, decoderFor, (result) => ({ type: 'done', result })),
  };
}
