/**
 * Shared (floor 2 of search): the vocabulary the stages above speak. The ports every stage reads
 * and writes through (`files.ts`: the workspace file system, confined, and the index's storage,
 * with their Node and in-memory implementations), the settings, the inference calls search makes
 * and the engine's options and results (`searchTypes.ts`), the index's records and load failures
 * (`indexTypes.ts`), and posting lists (`postings.ts`).
 */
export { BytesFile, FileNotReadError, MemoryIndexStorage, NodeFileSystem, NodeIndexStorage, type DirEntry, type FileStat, type IndexStorage, type LoadedFile, type RandomAccessFile, type SearchFileSystem } from './files';
export { previewStart, TF_BITS, TF_MAX, type ChunkMeta, type FileRecord, type LaidOutPartial, type LexicalHit, type LoadFailure, type PartialIndex, type PreviewBytes } from './indexTypes';
export { copyShifted, layOutPostings, LOG_BLOCK, pendingCount, PostingLog, selectTop, type PendingPostings, type PostingTable } from './postings';
export {
  DEFAULT_SEARCH_SETTINGS,
  type EmbedFn,
  type IndexProgress,
  type IndexStats,
  type OpenOptions,
  type PendingEmbedding,
  type RerankFn,
  type SearchEngineOptions,
  type SearchHit,
  type SearchInference,
  type SearchNote,
  type SearchResult,
  type SearchSettings,
  type WorkspaceIndex,
} from './searchTypes';
