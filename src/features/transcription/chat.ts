import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkAudioBytes, probeAudioFile } from '../../core/inference/transcription/audioFile';
import { choiceFromPrompt } from '../../core/inference/transcription/choice';
import { formatBytes, presentTranscriptionError, type TranscriptionAction } from '../../core/inference/transcription/errors';
import type { AudioFormat } from '../../core/inference/transcription/format';
import { languageLabel } from '../../core/inference/transcription/languages';
import { formatDuration } from '../../core/inference/transcription/markdown';
import { runTranscription, type AudioSource } from '../../core/inference/transcription/run';
import { formatTimestamp } from '../../core/inference/transcription/subtitles';
import { toAbortSignal } from '../../platform/cancellation';
import { chatErrorButtons } from '../../platform/errorNotification';
import type { Deps } from '../deps';
import { defaultSpeechModel } from './defaults';
import { TranscriptionCommands } from './ids';
import type { ResultStore, StoredResult, TranscriptionFeature } from './results';
import { readTranscriptionSettings } from './settings';

/** Binary attachments (`ChatReferenceBinaryData`): audio dropped into the chat input. */
interface BinaryLike { mimeType: string; data(): Thenable<Uint8Array> }
function isBinary(value: unknown): value is BinaryLike {
  return typeof value === 'object' && value !== null
    && typeof (value as { mimeType?: unknown }).mimeType === 'string'
    && typeof (value as { data?: unknown }).data === 'function';
}

interface Attachment {
  readonly name: string;
  readonly uri: vscode.Uri | undefined;
  load(maxBytes: number): Promise<AudioSource & { format: AudioFormat }>;
}

/** The first attached file (a file, an editor location's file, or dropped audio bytes). */
function findAttachment(references: readonly vscode.ChatPromptReference[]): Attachment | undefined {
  for (const reference of references) {
    const value = reference.value;
    const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
    if (uri && uri.scheme === 'file') {
      const name = path.basename(uri.path);
      return {
        name,
        uri,
        load: async (maxBytes) => {
          const audio = await probeAudioFile(uri.fsPath, { maxBytes, fileName: name });
          return { fileName: name, size: audio.size, body: audio.blob, mimeType: audio.mimeType, durationSeconds: audio.durationSeconds, format: audio.format, changedSinceProbe: audio.changedSinceProbe, watchChanges: audio.watchChanges };
        },
      };
    }
    if (isBinary(value)) {
      const name = reference.id.split(/[\\/]/).pop() || 'attachment';
      return {
        name,
        uri: undefined,
        load: async (maxBytes) => {
          const audio = checkAudioBytes(await value.data(), name, maxBytes);
          return { fileName: name, size: audio.size, body: audio.bytes, mimeType: audio.mimeType, durationSeconds: audio.durationSeconds, format: audio.format };
        },
      };
    }
  }
  return undefined;
}

function cell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}

/** Buttons of an error in the chat: the same actions as the notification; the re-runs open the command palette flow, which lets the user pick the model and options, then retries. */
function errorButtons(stream: vscode.ChatResponseStream, actions: readonly TranscriptionAction[], attachment: Attachment | undefined): void {
  const again = { command: TranscriptionCommands.transcribeFile, arguments: attachment?.uri ? [attachment.uri] : [] };
  chatErrorButtons(stream, actions, { commands: { retry: again, pickSpeechModel: again, changeOptions: again } });
}

/** `@stratus /transcribe` with an attached audio file: text and segments in the chat, both saves offered. */
export function registerTranscribeChatCommand(deps: Deps, results: ResultStore, feature: TranscriptionFeature): vscode.Disposable {
  return deps.chatCommands.register({
    name: 'transcribe',
    async handle(request, _context, stream, token): Promise<vscode.ChatResult> {
      const configured = await deps.inference.isConfigured();
      if (!configured.apiKey || !configured.baseUrl) {
        stream.markdown(configured.apiKey ? vscode.l10n.t('**Stratus is not configured: set the inference base URL** (`stratus.inference.baseUrl`).') : vscode.l10n.t('**Stratus is not configured: set your API key.**'));
        errorButtons(stream, [configured.apiKey ? 'openSettings' : 'setApiKey'], undefined);
        return { metadata: { command: 'transcribe', error: true } };
      }
      const attachment = findAttachment(request.references);
      if (!attachment) {
        stream.markdown(vscode.l10n.t('Attach an audio file (wav, mp3, m4a, ogg, flac or webm) to `/transcribe`: drag it into the chat input or use **Add Context…**. Add `translate` to get English text, `lang:fr` (or a language name) to set the spoken language, and any other words as names and jargon to expect.'));
        stream.button({ command: TranscriptionCommands.transcribeFile, title: vscode.l10n.t('Transcribe Audio File…') });
        return { metadata: { command: 'transcribe', error: true } };
      }
      const asked = choiceFromPrompt(request.prompt, feature.lastOptions());
      const abort = toAbortSignal(token);
      let format: AudioFormat | undefined;
      try {
        const source = await attachment.load(readTranscriptionSettings().maxBytes);
        format = source.format;
        if (attachment.uri) stream.reference(attachment.uri);
        const options = asked.model ? asked : { ...asked, model: await defaultSpeechModel(deps, abort.signal).catch(() => undefined) };
        const result = await runTranscription(deps.inference.client(), source, options, (step) => {
          // Chat progress is a line per phase (uploading, waiting), not per percent.
          if (step.phase === 'uploading') return;
          stream.progress(step.message.charAt(0).toUpperCase() + step.message.slice(1));
        }, abort.signal, deps.logger);
        const stored: StoredResult = results.add({ fileName: source.fileName, audioUri: attachment.uri, format: source.format, options, result });
        const facts = [
          options.model ?? vscode.l10n.t('service default model'),
          options.language ? languageLabel(options.language) : result.language ? vscode.l10n.t('{0}, detected', languageLabel(result.language)) : languageLabel(result.language),
          options.task === 'translate' ? vscode.l10n.t('translated to English') : undefined,
          result.durationSeconds !== undefined ? formatDuration(result.durationSeconds) : undefined,
          vscode.l10n.t('{0} segment(s)', result.segments.length),
          formatBytes(source.size),
        ].filter(Boolean).join(' · ');
        const text = result.text.trim() === '' ? `_(${vscode.l10n.t('no speech recognised')})_` : result.text.trim().split('\n').map((l) => `> ${l}`).join('\n');
        stream.markdown(`**${options.task === 'translate' ? vscode.l10n.t('Translation of {0}', cell(source.fileName)) : vscode.l10n.t('Transcription of {0}', cell(source.fileName))}** (${facts})\n\n${text}\n\n`);
        if (result.segments.length > 0) {
          const rows = result.segments.map((s, i) => `| ${i + 1} | ${formatTimestamp(s.start, '.')} | ${formatTimestamp(s.end, '.')} | ${cell(s.text)} |`);
          stream.markdown([`| # | ${vscode.l10n.t('Start')} | ${vscode.l10n.t('End')} | ${vscode.l10n.t('Text')} |`, '|---:|---|---|---|', ...rows, ''].join('\n'));
        }
        stream.button({ command: TranscriptionCommands.saveSrt, title: vscode.l10n.t('Save as SRT'), arguments: [stored.id] });
        stream.button({ command: TranscriptionCommands.saveVtt, title: vscode.l10n.t('Save as WebVTT'), arguments: [stored.id] });
        return { metadata: { command: 'transcribe', resultId: stored.id, segments: result.segments.length } };
      } catch (error) {
        const shown = presentTranscriptionError(error, { fileName: attachment.name, format });
        if (shown.cancelled) {
          stream.markdown(vscode.l10n.t('Transcription cancelled.'));
          return { metadata: { command: 'transcribe', cancelled: true } };
        }
        deps.logger.error(`/transcribe of ${attachment.name} failed: ${shown.message}`);
        stream.markdown(`**${vscode.l10n.t('Could not transcribe {0}.', cell(attachment.name))}** ${shown.message}`);
        errorButtons(stream, shown.actions, attachment);
        return { metadata: { command: 'transcribe', error: true } };
      } finally {
        abort.dispose();
      }
    },
  });
}
