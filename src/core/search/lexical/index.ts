/**
 * Lexical (floor 4 of search): the lexical index, `LexicalIndex` (`lexical.ts`): a live tier in
 * memory (`liveTier.ts`, its chunks in columns, `chunkColumns.ts`) over the immutable on-disk
 * segment, searched with BM25 (`bm25.ts`) over the words' parts and their exact names
 * (`exactTerms.ts`), then path priors (`pathPriors.ts`); and how it is kept in storage (`storedIndex.ts`: opened
 * from the segment and the live file, saved as a live file beside the segment or merged into a
 * new one; the live file's encoding, `liveFile.ts`).
 */
export { demotedPaths, INDEX_FORMAT_VERSION, isLoadFailure, LexicalIndex, type ChunkMeta, type LexicalHit, type LoadFailure, type PartialIndex } from './lexical';
export { applyLive, encodeLive, LIVE_FILE } from './liveFile';
export { INDEX_FILE, loadStoredIndex, needsNewSegment, storeIndex } from './storedIndex';
