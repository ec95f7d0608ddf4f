import type { HttpTransport } from '../../http/transport';
import { ValidationError } from '../../errors';
import { chat, chatStream, type ChatStream, type ChatStreamOptions } from '../chat/chat';
import type { ChatMessage, ChatRequest, ChatResult } from '../chat/types';
import type { CallOptions } from '../shared/call';
import type { CompletionRequest } from './types';

export const COMPLETIONS_PATH = '/v1/completions';

/** Builds the chat-format body the contract requires for a text completion. */
export function toChatRequest(request: CompletionRequest): ChatRequest {
  const { prompt, system, messages, ...params } = request;
  if (messages) return { ...params, messages };
  if (typeof prompt !== 'string' || prompt === '') {
    throw new ValidationError('prompt must be a non-empty string', 'prompt');
  }
  const built: ChatMessage[] = system ? [{ role: 'system', content: system }] : [];
  built.push({ role: 'user', content: prompt });
  return { ...params, messages: built };
}

export function complete(
  transport: HttpTransport,
  request: CompletionRequest,
  options?: CallOptions,
): Promise<ChatResult> {
  return chat(transport, toChatRequest(request), options, COMPLETIONS_PATH);
}

export function completeStream(
  transport: HttpTransport,
  request: CompletionRequest,
  options?: ChatStreamOptions,
): ChatStream {
  return chatStream(transport, toChatRequest(request), options, COMPLETIONS_PATH);
}
