import { HttpTransport } from '../http/transport';
import type { SecretProvider, TransportOptions } from '../http/types';
import { chat, chatStream, type ChatStream, type ChatStreamOptions } from './chat/chat';
import type { ChatRequest, ChatResult } from './chat/types';
import { complete, completeStream } from './completions/completions';
import type { CompletionRequest } from './completions/types';
import { embed } from './embeddings/embeddings';
import type { EmbeddingRequest, EmbeddingResult } from './embeddings/types';
import { ModelCatalog } from './models/catalog';
import type { ModelKindOverrides } from './models/types';
import { rerank } from './rerank/rerank';
import type { RerankRequest, RerankResult } from './rerank/types';
import type { CallOptions } from './shared/call';
import { transcribe } from './transcription/transcription';
import type { TranscriptionOptions, TranscriptionRequest, TranscriptionResult } from './transcription/types';
import type { UsageListener } from '../usage/events';
import type { BeforeGeneration } from '../usage/guard';
import { meterClient } from '../usage/metering';

export interface InferenceClientOptions
  extends Omit<TransportOptions, 'auth' | 'secretName' | 'onUnauthorized'> {
  /** Reads the inference API key (kept in the OS secret store by the platform layer). */
  apiKey: SecretProvider;
  /** Name of the key in errors. Default "inference API key". */
  secretName?: string;
  /** Model list cache lifetime. Default 5 minutes. */
  modelCacheTtlMs?: number;
  /** Model kind overrides by id (a setting); a function is re-read on every use. */
  modelKindOverrides?: ModelKindOverrides | (() => ModelKindOverrides);
  /** Told about the tokens, search units and audio minutes of every answer (the usage meter). */
  onUsage?: UsageListener;
  /** Awaited before a chat or completion request is sent: the usage cap check (may wait or throw). */
  beforeGeneration?: BeforeGeneration;
  /** Clock of the usage events (tests). */
  usageNow?: () => number;
}

export interface InferenceClient {
  chat(request: ChatRequest, options?: CallOptions): Promise<ChatResult>;
  chatStream(request: ChatRequest, options?: ChatStreamOptions): ChatStream;
  complete(request: CompletionRequest, options?: CallOptions): Promise<ChatResult>;
  completeStream(request: CompletionRequest, options?: ChatStreamOptions): ChatStream;
  embed(request: EmbeddingRequest, options?: CallOptions): Promise<EmbeddingResult>;
  rerank(request: RerankRequest, options?: CallOptions): Promise<RerankResult>;
  transcribe(request: TranscriptionRequest, options?: TranscriptionOptions): Promise<TranscriptionResult>;
  readonly models: ModelCatalog;
  readonly transport: HttpTransport;
  /** Releases pooled connections. */
  close(): Promise<void>;
}

/** The inference API over one transport (one connection pool). Creating it loads nothing. */
export function createInferenceClient(options: InferenceClientOptions): InferenceClient {
  const { apiKey, secretName, modelCacheTtlMs, modelKindOverrides, onUsage, beforeGeneration, usageNow, ...transportOptions } = options;
  const transport = new HttpTransport({
    ...transportOptions,
    baseUrlParam: transportOptions.baseUrlParam ?? 'stratus.inference.baseUrl',
    auth: apiKey,
    secretName: secretName ?? 'inference API key',
  });
  const models = new ModelCatalog(transport, {
    ...(modelCacheTtlMs !== undefined ? { ttlMs: modelCacheTtlMs } : {}),
    ...(modelKindOverrides !== undefined ? { overrides: modelKindOverrides } : {}),
  });
  return meterClient({
    chat: (request, opts) => chat(transport, request, opts),
    chatStream: (request, opts) => chatStream(transport, request, opts),
    complete: (request, opts) => complete(transport, request, opts),
    completeStream: (request, opts) => completeStream(transport, request, opts),
    embed: (request, opts) => embed(transport, request, opts),
    rerank: (request, opts) => rerank(transport, request, opts),
    transcribe: (request, opts) => transcribe(transport, request, opts),
    models,
    transport,
    close: () => transport.close(),
  }, { onUsage, beforeGeneration, now: usageNow });
}
