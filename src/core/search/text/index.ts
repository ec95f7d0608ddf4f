/**
 * Text (floor 1 of search, the lowest: imports nothing from the other stages): cutting a file
 * into chunks (line ranges on cheap syntactic boundaries, `chunker.ts`; a chunk's preview,
 * `chunkScan.ts`; a file's bytes as text, UTF-16 by its byte-order mark, `fileText.ts`; whether its header says it is generated, `generatedHeader.ts`) and into terms (identifier-aware tokenising and stemming shared by the index and
 * the query side, `identifiers.ts`; the indexer's term counter, `termCounter.ts`, over the part
 * scanner in WebAssembly, `partScanner.ts`, whose AssemblyScript source is `wasm/` and whose bytes
 * `scripts/build-wasm.mjs` writes to the generated `partScannerWasm.ts`).
 */
export { chunkRanges, chunkText, type Chunk, type ChunkOptions, type ChunkRange } from './chunker';
export { previewOf, scanSpan, type ChunkSpan } from './chunkScan';
export { decodeFileText, utf16ByteOrder, type Decoder } from './fileText';
export { GENERATED_TERM, hasGeneratedHeader } from './generatedHeader';
export { distinctTerms, forEachTerm, splitIdentifier, stem, tokenize } from './identifiers';
export { TermCounter } from './termCounter';
