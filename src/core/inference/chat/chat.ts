import type { HttpTransport } from '../../http/transport';
import type { HttpResponse } from '../../http/types';
import { callTransport, type CallOptions } from '../shared/call';
import { mergeUnder } from '../shared/extraBody';
import { responseMeta } from '../shared/meta';
import { parseChatCompletion } from './completion';
import { iterateSse, readSse } from './sse';
import { ChatStreamDecoder } from './streamDecoder';
import type { ChatRequest, ChatResult, ChatStreamEvent } from './types';
import { buildChatBody } from './validate';

export const CHAT_PATH = '/v1/chat/completions';

/**
 * A non-streamed answer arrives only once fully generated, so its first byte can take minutes:
 * the default time-to-first-byte for it is longer than the transport's.
 */
export const NON_STREAMED_FIRST_BYTE_MS = 300_000;

export interface ChatStreamOptions extends CallOptions {
  /**
   * Ask for the final usage chunk with `stream_options: {include_usage: true}`. Not in the
   * contract (production sends usage unasked), so it is opt-in; OpenAI-style servers accept it.
   */
  includeUsage?: boolean;
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
  options: CallOptions = {},
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
  });
  return parseChatCompletion(await res.json(), responseMeta(res), `POST ${path}`);
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
    });
  };
  const decoderFor = (res: HttpResponse, emit: (e: ChatStreamEvent) => void): ChatStreamDecoder =>
    new ChatStreamDecoder(emit, { label, meta: responseMeta(res), redact: (t) => transport.redact(t) });

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
