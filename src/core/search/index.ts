/**
 * The search index's one door for the rest of the extension (features, tools, completion context):
 * nothing outside src/core/search imports a stage folder directly. The stages, each a folder with
 * an index.ts saying what it offers, import one way only, down this list (`npm run check` fails on
 * an upward import, `.dependency-cruiser.cjs`):
 * worker -> engine -> query -> build -> lexical -> store -> shared -> text.
 */
export { chunkRanges, chunkText, type Chunk, type ChunkOptions, type ChunkRange } from './text';
export { contentHash, EmbeddingCache, embedTexts, planEmbeddingBatches, type EmbedFn, type EmbeddingBatch } from './query';
export { EmbeddingResults, lineVectors, planEmbeddingsBatch, type EmbeddingLine, type EmbeddingsApplied, type EmbeddingsBatchPlan } from './query';
export { SearchEngine } from './engine';
export { WORKER_MIN_FILES } from './build';
export { describeLoadFailure } from './store';
export {
  DEFAULT_SEARCH_SETTINGS,
  type IndexProgress,
  type IndexStats,
  type SearchEngineOptions,
  type SearchHit,
  type SearchInference,
  type SearchNote,
  type SearchResult,
  type SearchSettings,
} from './shared';
export { demotedPaths, INDEX_FILE } from './lexical';
export { BytesFile, FileNotReadError, MemoryIndexStorage, NodeFileSystem, NodeIndexStorage, type DirEntry, type FileStat, type IndexStorage, type RandomAccessFile, type SearchFileSystem } from './shared';
export { enabledGlobs, expandBraces, globToGitignore, looksBinary, PathFilter, type SkipReason } from '../workspace/ignoreRules';
export { reciprocalRankFusion } from './query';
export { exactDefinitions, fuseSymbolDefinitions, isIdentifierQuery, symbolOwnName, MAX_LIFTED_DEFINITIONS, type RankedPlace, type SymbolDefinition } from './query';
export { splitIdentifier, stem, tokenize, distinctTerms, hasGeneratedHeader } from './text';
export { INDEX_FORMAT_VERSION, LexicalIndex, type ChunkMeta, type LexicalHit, type LoadFailure } from './lexical';
export { rerankDocuments, trimForRerank, type RerankFn, type RerankOutcome, type RerankPlan } from './query';
export { searchInference } from './query';
export { IndexClient, IndexWorkerError, type IndexClientOptions } from './worker';
export { searchSettingsKey } from './store';
export { LIVE_FILE, loadStoredIndex } from './lexical';
export type { OpenOptions, PendingEmbedding, WorkspaceIndex } from './shared';
