import type { ChatMessage, ChatRequest } from '../chat/types';

/**
 * POST /v1/completions takes the chat body unchanged; the prompt travels as a user message.
 * Either give `messages` yourself or a `prompt` (with an optional `system` instruction).
 */
export type CompletionRequest = Omit<ChatRequest, 'messages'> &
  (
    | { prompt: string; system?: string; messages?: never }
    | { messages: ChatMessage[]; prompt?: never; system?: never }
  );
