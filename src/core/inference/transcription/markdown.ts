import { languageLabel } from './languages';
import { formatTimestamp, type TimedText } from './subtitles';

export interface TranscriptDocumentInput {
  fileName: string;
  text: string;
  segments: readonly TimedText[];
  model: string | undefined;
  /** Language asked for; `undefined` means automatic detection. */
  requestedLanguage: string | undefined;
  /** Language the service reports. */
  language: string | undefined;
  task: 'transcribe' | 'translate';
  durationSeconds: number | undefined;
}

/** A Markdown table cell: one line, pipes and backslashes escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}

export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

/** The result document: heading, facts, the text, and a segment table with timestamps. */
export function transcriptMarkdown(input: TranscriptDocumentInput): string {
  const language = input.requestedLanguage
    ? languageLabel(input.requestedLanguage)
    : `${languageLabel(input.language)}${input.language ? ', detected' : ''}`;
  const facts = [
    `**Model:** ${input.model ?? 'service default'}`,
    `**Language:** ${language}`,
    `**Task:** ${input.task === 'translate' ? 'translate to English' : 'transcribe'}`,
    ...(input.durationSeconds !== undefined ? [`**Duration:** ${formatDuration(input.durationSeconds)}`] : []),
    `**Segments:** ${input.segments.length}`,
  ];
  const title = input.task === 'translate' ? 'Translation' : 'Transcription';
  const lines = [`# ${title} of ${cell(input.fileName)}`, '', facts.join(' · '), '', '## Text', '', input.text.trim() === '' ? '_(no speech recognised)_' : input.text.trim(), ''];
  lines.push('## Segments', '');
  if (input.segments.length === 0) {
    lines.push('_(none)_', '');
  } else {
    lines.push('| # | Start | End | Text |', '|---:|---|---|---|');
    input.segments.forEach((s, i) => {
      lines.push(`| ${i + 1} | ${formatTimestamp(s.start, '.')} | ${formatTimestamp(s.end, '.')} | ${cell(s.text)} |`);
    });
    lines.push('');
  }
  return lines.join('\n');
}
