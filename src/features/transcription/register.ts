import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/inference/models/types';
import { probeAudioFile, type AudioFile } from '../../core/inference/transcription/audioFile';
import { parseChoiceArgument } from '../../core/inference/transcription/choice';
import { formatBytes, presentTranscriptionError } from '../../core/inference/transcription/errors';
import { formatDuration, transcriptMarkdown } from '../../core/inference/transcription/markdown';
import { runTranscription } from '../../core/inference/transcription/run';
import { toSrt, toWebVtt } from '../../core/inference/transcription/subtitles';
import { toAbortSignal } from '../../platform/cancellation';
import { DisposableStore } from '../../platform/disposables';
import { showPresentedError } from '../../platform/errorNotification';
import type { Deps } from '../deps';
import { registerTranscribeChatCommand } from './chat';
import { defaultOptions, defaultSpeechModel } from './defaults';
import { AUDIO_EXTENSIONS, RESULT_ACTIVE_CONTEXT, TranscriptionCommands } from './ids';
import { chooseOptions, speechModels } from './options';
import { ResultStore, type StoredResult, type TranscriptionFeature, type TranscriptionOptionsChoice } from './results';
import { readTranscriptionSettings } from './settings';

/** What `stratus.transcribeFile` resolves to (for scripts and tests); undefined when nothing ran. */
export interface TranscribeCommandResult {
  readonly resultId: string;
  readonly documentUri: string;
  readonly text: string;
  readonly segments: number;
  readonly durationSeconds: number | undefined;
}

export function register(deps: Deps): vscode.Disposable {
  const store = new DisposableStore();
  const results = new ResultStore();
  let remembered: Partial<TranscriptionOptionsChoice> = {};
  const feature: TranscriptionFeature = { store: results, lastOptions: () => ({ ...defaultOptions(), ...remembered, prompt: undefined, task: 'transcribe' }) };

  const updateContext = (editor: vscode.TextEditor | undefined): void => {
    void vscode.commands.executeCommand('setContext', RESULT_ACTIVE_CONTEXT, results.forDocument(editor?.document.uri) !== undefined);
  };
  store.add(vscode.window.onDidChangeActiveTextEditor(updateContext));

  const listModels = (): Promise<ModelInfo[]> => deps.inference.client().models.list();

  const showError = (error: unknown, fileName: string, format: AudioFile['format'] | undefined, again: (change: 'model' | 'options' | 'none') => Promise<unknown>): void => {
    const shown = presentTranscriptionError(error, { fileName, format });
    if (shown.cancelled) return;
    deps.logger.error(`Transcription of ${fileName} failed: ${shown.message}`);
    // Not awaited: the progress notification must close now, not when the message is dismissed.
    void showPresentedError(shown, {
      log: deps.logChannel,
      on: { retry: () => again('none'), pickSpeechModel: () => again('model'), changeOptions: () => again('options') },
    });
  };

  const openResult = async (stored: StoredResult): Promise<vscode.TextDocument> => {
    const content = transcriptMarkdown({
      fileName: stored.fileName,
      text: stored.result.text,
      segments: stored.result.segments,
      model: stored.options.model,
      requestedLanguage: stored.options.language,
      language: stored.result.language,
      task: stored.options.task,
      durationSeconds: stored.result.durationSeconds,
    });
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    stored.documentUri = document.uri.toString();
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    updateContext(editor);
    return document;
  };

  const transcribeFile = async (uriArgument?: unknown, optionsArgument?: unknown, change: 'model' | 'options' | 'none' = 'none'): Promise<TranscribeCommandResult | undefined> => {
    const configured = await deps.inference.isConfigured();
    if (!configured.apiKey || !configured.baseUrl) {
      const message = configured.apiKey ? vscode.l10n.t('Stratus is not configured: set stratus.inference.baseUrl.') : vscode.l10n.t('Stratus is not configured: set your API key.');
      const openBaseUrl = (): unknown => vscode.commands.executeCommand('workbench.action.openSettings', 'stratus.inference.baseUrl');
      void showPresentedError({ message, actions: [configured.apiKey ? 'openSettings' : 'setApiKey'] }, { log: deps.logChannel, text: message, on: { openSettings: openBaseUrl } });
      return undefined;
    }
    let uri = uriArgument instanceof vscode.Uri ? uriArgument : undefined;
    if (!uri) {
      const picked = await vscode.window.showOpenDialog({
        title: vscode.l10n.t('Stratus: Transcribe Audio File'),
        openLabel: vscode.l10n.t('Transcribe'),
        canSelectMany: false,
        filters: { [vscode.l10n.t('Audio')]: [...AUDIO_EXTENSIONS], [vscode.l10n.t('All files')]: ['*'] },
      });
      uri = picked?.[0];
      if (!uri) return undefined;
    }
    const fileName = path.basename(uri.path);
    if (uri.scheme !== 'file') {
      void vscode.window.showErrorMessage(vscode.l10n.t("Stratus: {0} is not on this machine's disk ({1}:); open a local audio file to transcribe it.", fileName, uri.scheme));
      return undefined;
    }
    const settings = readTranscriptionSettings();
    let audio: AudioFile;
    try {
      audio = await probeAudioFile(uri.fsPath, { maxBytes: settings.maxBytes, fileName });
    } catch (error) {
      showError(error, fileName, undefined, () => transcribeFile(uri));
      return undefined;
    }

    const base = feature.lastOptions();
    let options = parseChoiceArgument(optionsArgument, base);
    if (!options || change !== 'none') {
      const start = options ?? base;
      const summary = vscode.l10n.t('Transcribe {0} ({1})', fileName, [audio.format, formatBytes(audio.size), ...(audio.durationSeconds !== undefined ? [formatDuration(audio.durationSeconds)] : [])].join(', '));
      if (change === 'model') {
        const models = await listModels().catch(() => [] as ModelInfo[]);
        const choices = (speechModels(models).length > 0 ? speechModels(models) : models).map((m) => ({ label: m.id, description: m.kind }));
        const model = await vscode.window.showQuickPick(choices, { title: vscode.l10n.t('Speech model'), placeHolder: vscode.l10n.t('Model that transcribes the audio') });
        if (!model) return undefined;
        options = { ...start, model: model.label };
      } else {
        options = await chooseOptions(summary, start, listModels);
        if (!options) return undefined;
      }
    }
    const chosen = options;
    remembered = { model: chosen.model, language: chosen.language, temperature: chosen.temperature };
    const again = (next: 'model' | 'options' | 'none'): Promise<unknown> => transcribeFile(uri, chosen, next);

    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: chosen.task === 'translate' ? vscode.l10n.t('Stratus: translating {0}', fileName) : vscode.l10n.t('Stratus: transcribing {0}', fileName), cancellable: true },
      async (progress, token): Promise<TranscribeCommandResult | undefined> => {
        const abort = toAbortSignal(token);
        try {
          // Name the model in the request and the result: the first speech model listed, if any.
          const used: TranscriptionOptionsChoice = chosen.model ? chosen : { ...chosen, model: await defaultSpeechModel(deps, abort.signal).catch(() => undefined) };
          const result = await runTranscription(deps.inference.client(), { fileName, size: audio.size, body: audio.blob, mimeType: audio.mimeType, durationSeconds: audio.durationSeconds, changedSinceProbe: audio.changedSinceProbe, watchChanges: audio.watchChanges }, used, (step) => progress.report({ message: step.message, ...(step.increment !== undefined ? { increment: step.increment } : {}) }), abort.signal, deps.logger);
          const stored = results.add({ fileName, audioUri: uri, format: audio.format, options: used, result });
          const document = await openResult(stored);
          const saveSrt = vscode.l10n.t('Save as SRT');
          const saveVtt = vscode.l10n.t('Save as WebVTT');
          void vscode.window
            .showInformationMessage(vscode.l10n.t('Stratus: {0} transcribed: {1} segment(s).', fileName, result.segments.length), saveSrt, saveVtt)
            .then((choice) => {
              if (choice === saveSrt) return vscode.commands.executeCommand(TranscriptionCommands.saveSrt, stored.id);
              if (choice === saveVtt) return vscode.commands.executeCommand(TranscriptionCommands.saveVtt, stored.id);
              return undefined;
            });
          return { resultId: stored.id, documentUri: document.uri.toString(), text: result.text, segments: result.segments.length, durationSeconds: result.durationSeconds };
        } catch (error) {
          showError(error, fileName, audio.format, again);
          return undefined;
        } finally {
          abort.dispose();
        }
      },
    );
  };

  const save = async (kind: 'srt' | 'vtt', argument: unknown, target: unknown): Promise<string | undefined> => {
    const stored = results.resolve(argument);
    if (!stored) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: no transcription to save here. Run "Stratus: Transcribe Audio File…" first, then save from its result document.'));
      return undefined;
    }
    const extension = kind === 'srt' ? 'srt' : 'vtt';
    const stem = stored.fileName.replace(/\.[^.]+$/, '') || 'transcription';
    let uri = target instanceof vscode.Uri ? target : undefined;
    if (uri) {
      const exists = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
      if (exists) {
        const replace = vscode.l10n.t('Replace');
        const overwrite = await vscode.window.showWarningMessage(vscode.l10n.t('{0} already exists. Replace it?', path.basename(uri.path)), { modal: true }, replace);
        if (overwrite !== replace) return undefined;
      }
    } else {
      const folder = stored.audioUri ? vscode.Uri.joinPath(stored.audioUri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
      const defaultUri = folder ? vscode.Uri.joinPath(folder, `${stem}.${extension}`) : undefined;
      uri = await vscode.window.showSaveDialog({
        title: kind === 'srt' ? vscode.l10n.t('Save as SRT subtitles') : vscode.l10n.t('Save as WebVTT subtitles'),
        filters: kind === 'srt' ? { [vscode.l10n.t('SubRip subtitles')]: ['srt'] } : { [vscode.l10n.t('WebVTT subtitles')]: ['vtt'] },
        ...(defaultUri ? { defaultUri } : {}),
      });
      if (!uri) return undefined;
    }
    const content = kind === 'srt' ? toSrt(stored.result.segments) : toWebVtt(stored.result.segments);
    try {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
    } catch (error) {
      const reason = error instanceof vscode.FileSystemError ? error.code : error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(vscode.l10n.t('Stratus: could not save {0} ({1}). Pick another place.', path.basename(uri.path), reason));
      return undefined;
    }
    const saved = uri;
    const open = vscode.l10n.t('Open');
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: saved {0} ({1} segment(s)).', path.basename(saved.path), stored.result.segments.length), open).then((choice) => {
      if (choice === open) return vscode.window.showTextDocument(saved);
      return undefined;
    });
    return saved.toString();
  };

  store.add(vscode.commands.registerCommand(TranscriptionCommands.transcribeFile, (uri?: unknown, options?: unknown) => transcribeFile(uri, options)));
  store.add(vscode.commands.registerCommand(TranscriptionCommands.saveSrt, (argument?: unknown, target?: unknown) => save('srt', argument, target)));
  store.add(vscode.commands.registerCommand(TranscriptionCommands.saveVtt, (argument?: unknown, target?: unknown) => save('vtt', argument, target)));
  store.add(registerTranscribeChatCommand(deps, results, feature));
  return store;
}
