/**
 * Query (floor 6 of search): answering a search. The ranker (`ranking.ts`: the lexical candidates,
 * fused with embedding candidates by reciprocal rank fusion, `fusion.ts`), embeddings with their
 * cache (`embeddings.ts`), the rerank calls (`rerank.ts`) and the rerank stage with its fallbacks
 * (`rerankStage.ts`), the inference client as search uses it (`inference.ts`), and the fusion of a language server's
 * workspace symbols with the index's order for an identifier (`symbolFusion.ts`).
 */
export { contentHash, dot, EmbeddingCache, embedTexts, planEmbeddingBatches, type EmbedFn, type EmbeddingBatch } from './embeddings';
export { EmbeddingResults, lineVectors, planEmbeddingsBatch, type EmbeddingLine, type EmbeddingsApplied, type EmbeddingsBatchPlan } from './embeddingsBatch';
export { reciprocalRankFusion } from './fusion';
export { searchInference } from './inference';
export { embeddingsFile, Ranker, toHit, type RankerOptions } from './ranking';
export { rerankDocuments, trimForRerank, type RerankFn, type RerankOutcome, type RerankPlan } from './rerank';
export { readDocuments, rerankStage, type LocalCandidates } from './rerankStage';
export { fuseSymbolDefinitions, exactDefinitions, isIdentifierQuery, symbolOwnName, MAX_LIFTED_DEFINITIONS, type RankedPlace, type SymbolDefinition } from './symbolFusion';
