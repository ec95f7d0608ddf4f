export { chunkRanges, chunkText, type Chunk, type ChunkOptions, type ChunkRange } from './text/chunker';
export { contentHash, EmbeddingCache, embedTexts, planEmbeddingBatches, type EmbedFn, type EmbeddingBatch } from './query/embeddings';
export {
  DEFAULT_SEARCH_SETTINGS,
  WORKER_MIN_FILES,
  INDEX_FILE,
  describeLoadFailure,
  SearchEngine,
  type IndexProgress,
  type IndexStats,
  type SearchEngineOptions,
  type SearchHit,
  type SearchInference,
  type SearchNote,
  type SearchResult,
  type SearchSettings,
} from './engine/engine';
export { BytesFile, FileNotReadError, MemoryIndexStorage, NodeFileSystem, NodeIndexStorage, type DirEntry, type FileStat, type IndexStorage, type RandomAccessFile, type SearchFileSystem } from './shared/files';
export { enabledGlobs, expandBraces, globToGitignore, looksBinary, PathFilter, type SkipReason } from '../workspace/ignoreRules';
export { reciprocalRankFusion } from './query/fusion';
export { splitIdentifier, stem, tokenize, distinctTerms } from './text/identifiers';
export { INDEX_FORMAT_VERSION, LexicalIndex, type ChunkMeta, type LexicalHit, type LoadFailure } from './lexical/lexical';
export { rerankDocuments, trimForRerank, type RerankFn, type RerankOutcome, type RerankPlan } from './query/rerank';
export { searchInference } from './query/inference';
export { IndexClient, IndexWorkerError, type IndexClientOptions } from './worker/indexClient';
export { searchSettingsKey } from './store/indexFormat';
export { LIVE_FILE, loadStoredIndex } from './lexical/storedIndex';
export type { OpenOptions, WorkspaceIndex } from './shared/searchTypes';
