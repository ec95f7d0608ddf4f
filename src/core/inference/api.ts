import type { HttpTransport } from '../http/transport';
import type { ChatStream, ChatStreamOptions } from './chat/chat';
import type { ChatRequest, ChatResult } from './chat/types';
import type { CompletionRequest } from './completions/types';
import type { EmbeddingRequest, EmbeddingResult } from './embeddings/types';
import type { ModelCatalog } from './models/catalog';
import type { RerankRequest, RerankResult } from './rerank/types';
import type { CallOptions } from './shared/call';
import type { TranscriptionOptions, TranscriptionRequest, TranscriptionResult } from './transcription/types';

/** What the inference API offers, whoever implements it (the client, or a decorator such as the usage meter). */
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
