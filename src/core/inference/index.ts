export { createInferenceClient, type InferenceClient, type InferenceClientOptions } from './client';
export * from './chat/index';
export * from './completions/index';
export * from './embeddings/index';
export * from './rerank/index';
export * from './transcription/index';
export * from './models/index';
export type { CallOptions } from './shared/call';
export type { ResponseMeta } from './shared/meta';
