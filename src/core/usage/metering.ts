import type { ChatStream } from '../inference/chat/chat';
import type { ChatRequest, ChatResult, ChatStreamEvent, Usage } from '../inference/chat/types';
import type { InferenceClient } from '../inference/api';
import { toChatRequest } from '../inference/completions/completions';
import type { CompletionRequest } from '../inference/completions/types';
import { CHARS_PER_TOKEN, estimateMessageTokens, estimateTextTokens, estimateToolsTokens } from '../inference/models/tokens';
import type { CallOptions } from '../inference/shared/call';
import type { ResponseMeta } from '../inference/shared/meta';
import type { GenerationKind, UsageListener } from './events';
import type { BeforeGeneration } from './guard';

export interface MeteringOptions {
  onUsage?: UsageListener | undefined;
  /** The cap pre-check, awaited before a chat or completion request is sent. */
  beforeGeneration?: BeforeGeneration | undefined;
  now?: (() => number) | undefined;
}

/** A call's `purpose` decides its kind: `inline` is metered as `completion` (inline statistics). */
function kindOf(options: CallOptions | undefined): GenerationKind {
  switch (options?.purpose) {
    case 'inline':
      return 'completion';
    case 'edit':
    case 'ocr':
    case 'commit':
    case 'nextEdit':
    case 'review':
      return options.purpose;
    default:
      return 'chat';
  }
}

/** The figures of a usage the server reported (cached prompt tokens only when it said). */
function reported(u: Usage): { promptTokens: number; completionTokens: number; reasoningTokens: number; cachedTokens?: number; estimated: false } {
  return { promptTokens: u.promptTokens, completionTokens: u.completionTokens, reasoningTokens: u.reasoningTokens ?? 0, ...(u.cachedTokens !== undefined ? { cachedTokens: u.cachedTokens } : {}), estimated: false };
}

/** Prompt tokens of a request the server reported no usage for, estimated from its text. */
export function estimatePrompt(request: ChatRequest): number {
  return request.messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0) + estimateToolsTokens(request.tools);
}

/** Generated tokens of such an answer, estimated from its text, thinking and tool calls. */
export function estimateCompletion(result: ChatResult): number {
  let text = result.text + result.thinking;
  for (const call of result.toolCalls) text += call.function.name + call.function.arguments;
  return estimateTextTokens(text);
}

/** A request's usage when the server sent none, estimated as the meter estimates it. */
export function estimateUsage(request: ChatRequest, result: ChatResult): Usage {
  const promptTokens = estimatePrompt(request);
  const completionTokens = estimateCompletion(result);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/**
 * What arrived of a stream, so that one that never completes (cancelled, interrupted, stalled, or
 * stopped by the consumer) is still counted: the provider bills what it generated. One call per
 * event, no allocation: the hot path stays a plain loop.
 */
class Arrived {
  /** Characters of text, thinking and tool-call fragments. */
  chars = 0;
  any = false;
  usage: Usage | undefined;
  result: ChatResult | undefined;
  /** Counted already (a stream is metered once). */
  metered = false;

  observe(e: ChatStreamEvent): void {
    switch (e.type) {
      case 'text':
      case 'thinking':
        this.chars += e.text.length;
        this.any = true;
        break;
      case 'tool_call_delta':
        this.chars += e.arguments.length + (e.name?.length ?? 0);
        this.any = true;
        break;
      case 'usage':
        this.usage = e.usage;
        break;
      case 'done':
        this.result = e.result;
        break;
      default:
        break;
    }
  }
}

/**
 * Wraps a client so every answer reports its usage and every generating request passes the cap
 * check first. The endpoint modules stay unaware of metering. A listener that throws never
 * breaks the request.
 */
export function meterClient(client: InferenceClient, options: MeteringOptions): InferenceClient {
  const { onUsage, beforeGeneration } = options;
  if (!onUsage && !beforeGeneration) return client;
  const now = options.now ?? Date.now;
  const emit: UsageListener = (event) => {
    try {
      onUsage?.(event);
    } catch {
      // The meter must never fail a request.
    }
  };

  const rateLimit = (meta: ResponseMeta | undefined): void => {
    const rl = meta?.rateLimit;
    if (!rl) return;
    emit({ kind: 'rateLimit', at: now(), limitRequests: rl.limitRequests, remainingRequests: rl.remainingRequests, resetAt: rl.resetRequestsAt?.getTime() });
  };

  const chatUsage = (request: ChatRequest, result: ChatResult, kind: GenerationKind = 'chat'): void => {
    const model = result.model ?? request.model;
    if (result.usage) {
      emit({ kind, at: now(), model, ...reported(result.usage) });
    } else {
      // No usage from the server: estimated from the text, and marked so.
      emit({ kind, at: now(), model, promptTokens: estimatePrompt(request), completionTokens: estimateCompletion(result), reasoningTokens: 0, estimated: true });
    }
    rateLimit(result.meta);
  };

  const guard = async (request: ChatRequest, signal: AbortSignal | undefined): Promise<void> => {
    if (beforeGeneration) await beforeGeneration({ model: request.model, maxTokens: request.max_tokens }, signal);
  };

  /**
   * A stream that ended without its result: counted from what arrived (the server's usage if it
   * came, else estimated and marked so). Nothing arrived: nothing is counted (the request may
   * never have reached the model).
   */
  const streamUsage = (request: ChatRequest, seen: Arrived, kind: GenerationKind): void => {
    if (seen.metered) return;
    seen.metered = true;
    if (seen.result) {
      chatUsage(request, seen.result, kind);
    } else if (seen.usage) {
      emit({ kind, at: now(), model: request.model, ...reported(seen.usage) });
    } else if (seen.any) {
      emit({ kind, at: now(), model: request.model, promptTokens: estimatePrompt(request), completionTokens: Math.ceil(seen.chars / CHARS_PER_TOKEN), reasoningTokens: 0, estimated: true });
    }
  };

  /** The stream sends nothing until consumed: the check runs then, and usage is taken from its result. */
  const meterStream = (inner: ChatStream, request: ChatRequest, signal: AbortSignal | undefined, kind: GenerationKind = 'chat'): ChatStream => ({
    async consume(onEvent) {
      await guard(request, signal);
      const seen = new Arrived();
      try {
        const result = await inner.consume((e) => {
          seen.observe(e);
          onEvent?.(e);
        });
        seen.result = result;
        return result;
      } finally {
        streamUsage(request, seen, kind);
      }
    },
    [Symbol.asyncIterator](): AsyncIterator<ChatStreamEvent> {
      let it: AsyncIterator<ChatStreamEvent> | undefined;
      const seen = new Arrived();
      return {
        async next(): Promise<IteratorResult<ChatStreamEvent>> {
          if (!it) {
            await guard(request, signal);
            it = inner[Symbol.asyncIterator]();
          }
          let step: IteratorResult<ChatStreamEvent>;
          try {
            step = await it.next();
          } catch (error) {
            streamUsage(request, seen, kind);
            throw error;
          }
          if (step.done) streamUsage(request, seen, kind);
          else {
            seen.observe(step.value);
            if (step.value.type === 'done') streamUsage(request, seen, kind);
          }
          return step;
        },
        async return(value?: unknown): Promise<IteratorResult<ChatStreamEvent>> {
          // The consumer stopped early: what was generated until now is billed.
          if (it) streamUsage(request, seen, kind);
          if (it?.return) return it.return(value);
          return { done: true, value: undefined };
        },
      };
    },
  });

  const completionRequest = (request: CompletionRequest): ChatRequest => {
    try {
      return toChatRequest(request);
    } catch {
      // Invalid: the endpoint throws its own ValidationError; metering needs only the model.
      return { model: request.model, messages: [] };
    }
  };

  return {
    ...client,
    models: client.models,
    transport: client.transport,
    close: () => client.close(),
    async chat(request, opts) {
      await guard(request, opts?.signal);
      const result = await client.chat(request, opts);
      chatUsage(request, result, kindOf(opts));
      return result;
    },
    chatStream(request, opts) {
      return meterStream(client.chatStream(request, opts), request, opts?.signal, kindOf(opts));
    },
    async complete(request, opts) {
      const asChat = completionRequest(request);
      await guard(asChat, opts?.signal);
      const result = await client.complete(request, opts);
      chatUsage(asChat, result, kindOf(opts));
      return result;
    },
    completeStream(request, opts) {
      return meterStream(client.completeStream(request, opts), completionRequest(request), opts?.signal, kindOf(opts));
    },
    async embed(request, opts) {
      const result = await client.embed(request, opts);
      const inputs = Array.isArray(request.input) ? request.input : [request.input];
      const model = result.model ?? request.model;
      if (result.usage) emit({ kind: 'embeddings', at: now(), model, promptTokens: result.usage.promptTokens, estimated: false });
      else emit({ kind: 'embeddings', at: now(), model, promptTokens: inputs.reduce((s, t) => s + estimateTextTokens(t), 0), estimated: true });
      rateLimit(result.meta);
      return result;
    },
    async rerank(request, opts) {
      const result = await client.rerank(request, opts);
      // The result does not carry the reranked tokens: every (query, document) pair is scored.
      const queryTokens = estimateTextTokens(request.query);
      const rerankedTokens = request.documents.reduce((s, d) => s + queryTokens + estimateTextTokens(d), 0);
      emit({
        kind: 'rerank',
        at: now(),
        model: request.model,
        searchUnits: result.searchUnits ?? Math.ceil(request.documents.length / 100),
        rerankedTokens,
        estimated: true,
      });
      rateLimit(result.meta);
      return result;
    },
    async transcribe(request, opts) {
      const result = await client.transcribe(request, opts);
      // Unknown length: at least the one started minute any request is billed.
      if (result.durationSeconds !== undefined) emit({ kind: 'transcription', at: now(), model: request.model ?? '', audioSeconds: result.durationSeconds });
      else emit({ kind: 'transcription', at: now(), model: request.model ?? '', audioSeconds: 1, estimated: true });
      rateLimit(result.meta);
      return result;
    },
  };
}
