export { embed, EMBEDDINGS_PATH } from './embeddings';
export type { EmbeddingRequest, EmbeddingResult } from './types';
