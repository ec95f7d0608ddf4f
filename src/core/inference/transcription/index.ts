export { transcribe, transcriptionFields, TRANSCRIPTION_PATH } from './transcription';
export type { TranscriptionOptions, TranscriptionRequest, TranscriptionResult, TranscriptionSegment } from './types';
