/** Command ids and context keys of the transcription feature. */
export const TranscriptionCommands = {
  transcribeFile: 'stratus.transcribeFile',
  saveSrt: 'stratus.transcription.saveSrt',
  saveVtt: 'stratus.transcription.saveVtt',
} as const;

/** True while the active editor shows a transcription result (editor title save buttons). */
export const RESULT_ACTIVE_CONTEXT = 'stratus.transcription.resultActive';

/** Extensions the explorer menu and the open dialog offer; the content decides, not these. */
export const AUDIO_EXTENSIONS = ['wav', 'mp3', 'm4a', 'ogg', 'flac', 'webm'] as const;
