/**
 * Store (floor 3 of search): the index on disk. The segment format (`segmentFormat.ts`: binary
 * tables, header, checksums), reading a segment with its postings left on disk (`segment.ts`),
 * writing one (`segmentWriter.ts`) and merging the live tier into a new one (`segmentMerge.ts`);
 * the format version, the settings key a stored index is stamped with and the words for a load
 * failure (`indexFormat.ts`), and the range checks made before anything is allocated from a file
 * (`indexBounds.ts`).
 */
export { IndexCorruptError, isCount } from './indexBounds';
export { describeLoadFailure, INDEX_FORMAT_VERSION, searchSettingsKey } from './indexFormat';
export { readSegmentFiles, Segment, SegmentChunk } from './segment';
export { ByteBlock, readHeader, segmentLayout, WordBlock } from './segmentFormat';
export { mergeSteps, writeMerged, type IndexParts } from './segmentMerge';
