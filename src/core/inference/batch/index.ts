export * from './types';
export { BatchError, isBatchError, type BatchErrorReason } from './errors';
export { encodeRequestLine, jsonlLines, splitJsonl, MAX_RESULT_LINE_BYTES, type JsonlPart, type JsonlPartSink, type SplitOptions } from './jsonl';
export { matchResults, parseResultLine, readResults, type FailedItem, type ResultsSummary } from './results';
export { BATCHES_PATH, FILES_PATH, cancelBatch, checkBatchId, createBatch, getBatch, listBatches, openResults, parseBatch, uploadBatchFile, type BatchCallOptions } from './batch';
export { completedOrThrow, waitForBatch, type PollOptions } from './poll';
export { fileSink, submitBatchJob, type SubmitOptions, type SubmitResult, type SubmittedPart } from './job';
export { answerText, fileAnswer, fileCustomId, fileRequest, MAX_FILE_ANSWER_TOKENS, PROMPT_OVER_FILES_SYSTEM, textHash, type AnswerRefusal, type FileAnswer } from './promptOverFiles';
