export { chunkRanges, chunkText, type Chunk, type ChunkOptions, type ChunkRange } from './chunker';
export { contentHash, EmbeddingCache, embedTexts, planEmbeddingBatches, type EmbedFn, type EmbeddingBatch } from './embeddings';
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
} from './engine';
export { BytesFile, FileNotReadError, MemoryIndexStorage, NodeFileSystem, NodeIndexStorage, type DirEntry, type FileStat, type IndexStorage, type RandomAccessFile, type SearchFileSystem } from './files';
export { enabledGlobs, expandBraces, globToGitignore, looksBinary, PathFilter, type SkipReason } from '../workspace/ignoreRules';
export { reciprocalRankFusion } from './fusion';
export { splitIdentifier, stem, tokenize, distinctTerms } from './identifiers';
export { INDEX_FORMAT_VERSION, LexicalIndex, type ChunkMeta, type LexicalHit, type LoadFailure } from './lexical';
export { rerankDocuments, trimForRerank, type RerankFn, type RerankOutcome, type RerankPlan } from './rerank';
export { searchInference } from './inference';
export { IndexClient, IndexWorkerError, type IndexClientOptions } from './indexClient';
export { searchSettingsKey } from './indexFormat';
export { LIVE_FILE, loadStoredIndex } from './storedIndex';
export type { OpenOptions, WorkspaceIndex } from './searchTypes';
