export { transcribe, transcriptionFields, TRANSCRIPTION_PATH } from './transcription';
export type { TranscriptionRequest, TranscriptionResult, TranscriptionSegment } from './types';
