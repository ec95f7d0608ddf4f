import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelInfo } from '../../core/inference/models/types';
import { probeAudioFile, type AudioFile } from '../../core/transcription/audioFile';
import { parseChoiceArgument } from '../../core/transcription/choice';
import { formatBytes, presentTranscriptionError, type TranscriptionAction } from '../../core/transcription/errors';
import { formatDuration, transcriptMarkdown } from '../../core/transcription/markdown';
import { runTranscription } from '../../core/transcription/run';
import { toSrt, toWebVtt } from '../../core/transcription/subtitles';
import { toAbortSignal } from '../../platform/cancellation';
import { DisposableStore } from '../../platform/disposables';
import type { Deps } from '../deps';
import { registerTranscribeChatCommand } from './chat';
import { defaultOptions, defaultSpeechModel } from './defaults';
import { AUDIO_EXTENSIONS, RESULT_ACTIVE_CONTEXT, TranscriptionCommands } from './ids';
import { chooseOptions, speechModels } from './options';
import { ResultStore, type StoredResult, type TranscriptionOptionsChoice } from './results';
import { readTranscriptionSettings } from './settings';

/** What `stratus.transcribeFile` resolves to (for scripts and tests); undefined when nothing ran. */
export interface TranscribeCommandResult {
  readonly resultId: string;
  readonly documentUri: string;
  readonly text: string;
  readonly segments: number;
  readonly durationSeconds: number | undefined;
}

export interface TranscriptionFeature {
  readonly store: ResultStore;
  /** Options the last run used: the next run starts from them. */
  lastOptions(): TranscriptionOptionsChoice;
}

const ACTION_TITLES: Record<TranscriptionAction, string> = {
  setApiKey: 'Set Inference API Key',
  openSettings: 'Open Settings',
  openSizeSetting: 'Change the Limit',
  pickSpeechModel: 'Pick Speech Model',
  changeOptions: 'Change Options',
  retry: 'Retry',
  showLog: 'Show Log',
  showUsage: 'Show Usage',
};

export function actionTitle(action: TranscriptionAction): string {
  return ACTION_TITLES[action];
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

  /** Runs an action button of an error; `again` re-runs the transcription. */
  const runAction = async (action: TranscriptionAction | undefined, again: (change: 'model' | 'options' | 'none') => Promise<unknown>): Promise<void> => {
    switch (action) {
      case undefined:
        return;
      case 'setApiKey':
        await vscode.commands.executeCommand('stratus.setApiKey');
        return;
      case 'openSettings':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'stratus.inference');
        return;
      case 'openSizeSetting':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'stratus.transcription.maxFileSizeMB');
        return;
      case 'showLog':
        deps.logChannel.show(true);
        return;
      case 'showUsage':
        await vscode.commands.executeCommand('stratus.showUsage');
        return;
      case 'pickSpeechModel':
        await again('model');
        return;
      case 'changeOptions':
        await again('options');
        return;
      case 'retry':
        await again('none');
        return;
    }
  };

  const showError = (error: unknown, fileName: string, format: AudioFile['format'] | undefined, again: (change: 'model' | 'options' | 'none') => Promise<unknown>): void => {
    const shown = presentTranscriptionError(error, { fileName, format });
    if (shown.cancelled) return;
    deps.logger.error(`Transcription of ${fileName} failed: ${shown.message}`);
    const titles = shown.actions.map(actionTitle);
    // Not awaited: the progress notification must close now, not when the message is dismissed.
    void vscode.window.showErrorMessage(`Stratus: ${shown.message}`, ...titles).then((choice) => {
      const action = shown.actions.find((a) => actionTitle(a) === choice);
      return runAction(action, again);
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
      const action = configured.apiKey ? 'Open Settings' : 'Set Inference API Key';
      void vscode.window.showErrorMessage(`Stratus is not configured: ${configured.apiKey ? 'set stratus.inference.baseUrl' : 'set your API key'}.`, action).then((choice) => {
        if (choice === 'Set Inference API Key') void vscode.commands.executeCommand('stratus.setApiKey');
        else if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'stratus.inference.baseUrl');
      });
      return undefined;
    }
    let uri = uriArgument instanceof vscode.Uri ? uriArgument : undefined;
    if (!uri) {
      const picked = await vscode.window.showOpenDialog({
        title: 'Stratus: Transcribe Audio File',
        openLabel: 'Transcribe',
        canSelectMany: false,
        filters: { Audio: [...AUDIO_EXTENSIONS], 'All files': ['*'] },
      });
      uri = picked?.[0];
      if (!uri) return undefined;
    }
    const fileName = path.basename(uri.path);
    if (uri.scheme !== 'file') {
      void vscode.window.showErrorMessage(`Stratus: ${fileName} is not on this machine's disk (${uri.scheme}:); open a local audio file to transcribe it.`);
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
      const summary = `Transcribe ${fileName} (${audio.format}, ${formatBytes(audio.size)}${audio.durationSeconds !== undefined ? `, ${formatDuration(audio.durationSeconds)}` : ''})`;
      if (change === 'model') {
        const models = await listModels().catch(() => [] as ModelInfo[]);
        const choices = (speechModels(models).length > 0 ? speechModels(models) : models).map((m) => ({ label: m.id, description: m.kind }));
        const model = await vscode.window.showQuickPick(choices, { title: 'Speech model', placeHolder: 'Model that transcribes the audio' });
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
      { location: vscode.ProgressLocation.Notification, title: `Stratus: ${chosen.task === 'translate' ? 'translating' : 'transcribing'} ${fileName}`, cancellable: true },
      async (progress, token): Promise<TranscribeCommandResult | undefined> => {
        const abort = toAbortSignal(token);
        try {
          // Name the model in the request and the result: the first speech model listed, if any.
          const used: TranscriptionOptionsChoice = chosen.model ? chosen : { ...chosen, model: await defaultSpeechModel(deps, abort.signal).catch(() => undefined) };
          const result = await runTranscription(deps.inference.client(), { fileName, size: audio.size, body: audio.blob, mimeType: audio.mimeType, durationSeconds: audio.durationSeconds, changedSinceProbe: audio.changedSinceProbe, watchChanges: audio.watchChanges }, used, (step) => progress.report({ message: step.message, ...(step.increment !== undefined ? { increment: step.increment } : {}) }), abort.signal, deps.logger);
          const stored = results.add({ fileName, audioUri: uri, format: audio.format, options: used, result });
          const document = await openResult(stored);
          void vscode.window
            .showInformationMessage(`Stratus: ${fileName} transcribed: ${result.segments.length} segment(s).`, 'Save as SRT', 'Save as WebVTT')
            .then((choice) => {
              if (choice === 'Save as SRT') return vscode.commands.executeCommand(TranscriptionCommands.saveSrt, stored.id);
              if (choice === 'Save as WebVTT') return vscode.commands.executeCommand(TranscriptionCommands.saveVtt, stored.id);
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
      void vscode.window.showWarningMessage('Stratus: no transcription to save here. Run "Stratus: Transcribe Audio File…" first, then save from its result document.');
      return undefined;
    }
    const extension = kind === 'srt' ? 'srt' : 'vtt';
    const stem = stored.fileName.replace(/\.[^.]+$/, '') || 'transcription';
    let uri = target instanceof vscode.Uri ? target : undefined;
    if (uri) {
      const exists = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
      if (exists) {
        const overwrite = await vscode.window.showWarningMessage(`${path.basename(uri.path)} already exists. Replace it?`, { modal: true }, 'Replace');
        if (overwrite !== 'Replace') return undefined;
      }
    } else {
      const folder = stored.audioUri ? vscode.Uri.joinPath(stored.audioUri, '..') : vscode.workspace.workspaceFolders?.[0]?.uri;
      const defaultUri = folder ? vscode.Uri.joinPath(folder, `${stem}.${extension}`) : undefined;
      uri = await vscode.window.showSaveDialog({
        title: kind === 'srt' ? 'Save as SRT subtitles' : 'Save as WebVTT subtitles',
        filters: kind === 'srt' ? { 'SubRip subtitles': ['srt'] } : { 'WebVTT subtitles': ['vtt'] },
        ...(defaultUri ? { defaultUri } : {}),
      });
      if (!uri) return undefined;
    }
    const content = kind === 'srt' ? toSrt(stored.result.segments) : toWebVtt(stored.result.segments);
    try {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
    } catch (error) {
      const reason = error instanceof vscode.FileSystemError ? error.code : error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`Stratus: could not save ${path.basename(uri.path)} (${reason}). Pick another place.`);
      return undefined;
    }
    const saved = uri;
    void vscode.window.showInformationMessage(`Stratus: saved ${path.basename(saved.path)} (${stored.result.segments.length} segment(s)).`, 'Open').then((choice) => {
      if (choice === 'Open') return vscode.window.showTextDocument(saved);
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
