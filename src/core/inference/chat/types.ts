import type { ResponseMeta } from '../shared/meta';

/** Wire types follow the contract's snake_case names, so ValidationError.param matches the server's. */

export interface TextPart {
  type: 'text';
  text: string;
}

/** Recommended image form: `url` is a data URI with base64 data. */
export interface ImageUrlPart {
  type: 'image_url';
  image_url: { url: string };
}

/** Simplified image form, also accepted by the service. */
export interface ImagePart {
  type: 'image';
  image: string;
}

export type ContentPart = TextPart | ImageUrlPart | ImagePart;

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: string | ContentPart[];
}

export interface AssistantMessage {
  role: 'assistant';
  /** null when the message carries `tool_calls`. */
  content: string | null;
  tool_calls?: ToolCall[];
  /** The reasoning behind the tool calls, sent back only for families that need it (AgentOptions.keepReasoning). */
  reasoning_content?: string;
}

export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** The contract does not show the tools item schema; this is the common function form. */
export interface ToolDefinition {
  type: 'function';
  function: {
    name: string;
    description?: string;
    /** JSON Schema of the arguments object. */
    parameters?: Record<string, unknown>;
  };
}

export type ToolChoice = 'none' | 'auto' | { type: 'function'; function: { name: string } };

/** Every documented parameter of POST /v1/chat/completions (except `stream`, set by the call). */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** 0 to 2; server default 0.7. */
  temperature?: number;
  /** At least 1; server default 1024. */
  max_tokens?: number;
  /** 0 to 1; server default 1. */
  top_p?: number;
  /** -2 to 2; server default 0. */
  presence_penalty?: number;
  /** -2 to 2; server default 0. */
  frequency_penalty?: number;
  user?: string;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Present when the server reports it (`usage.reasoning_tokens` or `completion_tokens_details`). */
  reasoningTokens?: number;
  /** Prompt tokens served from the server's prompt cache, when it says (`prompt_tokens_details.cached_tokens`). */
  cachedTokens?: number;
}

/** One turn's outcome, from a plain call or an assembled stream. */
export interface ChatResult {
  id: string | undefined;
  model: string | undefined;
  created: number | undefined;
  /** The answer, `<think>` blocks removed. */
  text: string;
  /** The content of `<think>` blocks (and `reasoning_content`), joined. */
  thinking: string;
  /** True when a `<think>` block was never closed: the answer, if any, was cut inside it. */
  thinkingOpen?: boolean;
  toolCalls: ToolCall[];
  /** The ids of the calls in `toolCalls` read from the answer's text (never auto-approved); absent: none. */
  recoveredCallIds?: readonly string[];
  /** `stop`, `tool_calls`, `length`... undefined if the server never said. */
  finishReason: string | undefined;
  usage: Usage | undefined;
  /** The assistant message to append to the history: no thinking, tool calls included. */
  message: AssistantMessage;
  meta: ResponseMeta;
}

/** Typed deltas of a streamed answer, in arrival order. */
export type ChatStreamEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  /** A fragment of a tool call; the first one for an index carries `id` and `name`. */
  | { type: 'tool_call_delta'; index: number; id?: string; name?: string; arguments: string }
  /** A tool call whose arguments are complete (emitted when the finish reason arrives). */
  | { type: 'tool_call'; index: number; call: ToolCall }
  | { type: 'finish'; reason: string }
  | { type: 'usage'; usage: Usage }
  /** Always last: the assembled result. */
  | { type: 'done'; result: ChatResult };
