// Transcription in a real extension host against the sandbox: a WAV synthesised here (a tone
// written as PCM, never downloaded) is written into the test workspace, transcribed through the
// command, shown as a Markdown document, and saved as SRT and WebVTT; /transcribe in the chat
// handler with an attachment, and cancelling it aborts the upload request.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Redactor } from '../../src/core/http/redact';
import { silentLogger } from '../../src/core/log';
import type { Deps } from '../../src/features/deps';
import { registerTranscribeChatCommand } from '../../src/features/transcription/chat';
import type { TranscribeCommandResult } from '../../src/features/transcription/register';
import { ResultStore } from '../../src/features/transcription/results';
import { trustServices } from './fakes';
import { ChatCommandRegistry } from '../../src/platform/chatCommands';
import { ConnectionStatus } from '../../src/services/connectionStatus';
import { ConsoleConnection } from '../../src/services/consoleConnection';
import { InferenceConnection } from '../../src/services/inferenceConnection';
import { SecretKeys, SecretStore } from '../../src/platform/secrets';
import { readSettings } from '../../src/platform/settings';
import { SIGNATURES, toneWav } from '../unit/transcription/audio';
import { control, eventually, requests, sandbox } from './sandbox';

interface Part { name: string; filename?: string; contentType?: string; bytes: number; value?: string }
const partsOf = (r: { body: unknown }): Part[] => ((r.body as { parts?: Part[] } | null)?.parts ?? []);

function workspaceUri(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the host test window has a workspace folder');
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

describe('Transcription (against the sandbox)', function () {
  this.timeout(60_000);
  const wav = toneWav(12, { frequency: 523.25 });
  const audio = workspaceUri('stratus-transcription', 'meeting.wav');

  before(async () => {
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await vscode.workspace.fs.writeFile(audio, wav);
  });
  after(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.removeApiKey');
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(workspaceUri('stratus-transcription'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  it('transcribes a WAV from the workspace, opens the result, and saves SRT and WebVTT from the segments', async () => {
    const before = (await requests('/v1/audio/transcriptions')).length;
    const result = (await vscode.commands.executeCommand<TranscribeCommandResult | undefined>('stratus.transcribeFile', audio, { language: 'en', prompt: 'Stratus' }));
    assert.ok(result, 'the command returned a result');
    assert.equal(result.segments, 3, '12 s of audio in the sandbox\'s 5 s segments');
    assert.equal(result.durationSeconds, 12);
    assert.match(result.text, /^\[Stratus\] Segment 1 of the sandbox transcription of meeting\.wav\./);

    const seen = (await requests('/v1/audio/transcriptions')).slice(before);
    assert.equal(seen.length, 1);
    const file = partsOf(seen[0] as { body: unknown }).find((p) => p.name === 'file');
    assert.deepEqual([file?.filename, file?.contentType, file?.bytes], ['meeting.wav', 'audio/wav', wav.length]);
    // No model chosen: the first speech model the service lists is named in the request.
    assert.equal(partsOf(seen[0] as { body: unknown }).find((p) => p.name === 'model')?.value, 'whisper-large-v3');

    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === result.documentUri);
    assert.ok(document, 'the result document is open');
    assert.equal(document.languageId, 'markdown');
    assert.equal(document.isUntitled, true);
    assert.match(document.getText(), /^# Transcription of meeting\.wav/);
    assert.match(document.getText(), /\| 3 \| 00:00:10\.000 \| 00:00:12\.000 \| Segment 3 of the sandbox transcription of meeting\.wav\. \|/);

    const srt = workspaceUri('stratus-transcription', 'meeting.srt');
    const vtt = workspaceUri('stratus-transcription', 'meeting.vtt');
    assert.equal(await vscode.commands.executeCommand('stratus.transcription.saveSrt', result.resultId, srt), srt.toString());
    // From the active result document, as the editor title button does (no id argument).
    await vscode.window.showTextDocument(document);
    assert.equal(await vscode.commands.executeCommand('stratus.transcription.saveVtt', undefined, vtt), vtt.toString());
    assert.equal(
      await readText(srt),
      '1\n00:00:00,000 --> 00:00:05,000\n[Stratus] Segment 1 of the sandbox\ntranscription of meeting.wav.\n\n' +
        '2\n00:00:05,000 --> 00:00:10,000\nSegment 2 of the sandbox transcription of\nmeeting.wav.\n\n' +
        '3\n00:00:10,000 --> 00:00:12,000\nSegment 3 of the sandbox transcription of\nmeeting.wav.\n',
    );
    const webvtt = await readText(vtt);
    assert.match(webvtt, /^WEBVTT\n\n1\n00:00:00\.000 --> 00:00:05\.000\n\[Stratus\] Segment 1/);
    assert.match(webvtt, /\n3\n00:00:10\.000 --> 00:00:12\.000\n/);
  });

  it('refuses a text file named .wav before uploading anything', async () => {
    const fake = workspaceUri('stratus-transcription', 'fake.wav');
    await vscode.workspace.fs.writeFile(fake, SIGNATURES.text);
    const before = (await requests('/v1/audio/transcriptions')).length;
    const result = await vscode.commands.executeCommand('stratus.transcribeFile', fake, { language: 'en' });
    assert.equal(result, undefined);
    assert.equal((await requests('/v1/audio/transcriptions')).length, before, 'nothing was uploaded');
  });

  describe('@stratus /transcribe', () => {
    const disposables: vscode.Disposable[] = [];
    let deps: Deps;
    const results = new ResultStore();

    before(() => {
      const redactor = new Redactor();
      const values = new Map<string, string>([[SecretKeys.inferenceApiKey, sandbox().apiKey]]);
      const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
      const storage: vscode.SecretStorage = {
        get: async (key: string) => values.get(key),
        store: async (key: string, value: string) => { values.set(key, value); },
        delete: async (key: string) => { values.delete(key); },
        keys: async () => [...values.keys()],
        onDidChange: changed.event,
      } as vscode.SecretStorage;
      const logChannel = vscode.window.createOutputChannel('Stratus transcription test', { log: true });
      const secrets = new SecretStore(storage, redactor);
      const inference = new InferenceConnection(secrets, silentLogger);
      const consoleConnection = new ConsoleConnection(secrets, silentLogger);
      const connectionStatus = new ConnectionStatus();
      disposables.push(logChannel, inference, consoleConnection, connectionStatus, changed);
      deps = { logger: silentLogger, logChannel, redactor, secrets, settings: readSettings, inference, console: consoleConnection, connectionStatus, chatCommands: new ChatCommandRegistry(), ...trustServices() };
      disposables.push(registerTranscribeChatCommand(deps, results, { store: results, lastOptions: () => ({ model: undefined, language: undefined, task: 'transcribe', prompt: undefined, temperature: undefined }) }));
    });
    after(async () => {
      for (const d of disposables) d.dispose();
      await control('/reset', {});
    });

    class Recorder {
      readonly markdown: string[] = [];
      readonly buttons: vscode.Command[] = [];
      readonly progress: string[] = [];
      readonly references: unknown[] = [];
      stream(): vscode.ChatResponseStream {
        return {
          markdown: (v: string | vscode.MarkdownString) => { this.markdown.push(typeof v === 'string' ? v : v.value); },
          button: (c: vscode.Command) => { this.buttons.push(c); },
          progress: (v: string) => { this.progress.push(v); },
          reference: (v: unknown) => { this.references.push(v); },
          anchor: () => undefined,
          push: () => undefined,
        } as unknown as vscode.ChatResponseStream;
      }
    }
    const chatRequest = (prompt: string, references: vscode.ChatPromptReference[]): vscode.ChatRequest =>
      ({ prompt, command: 'transcribe', references, toolReferences: [], model: { vendor: 'stratus', id: 'gpt-oss:120b' } }) as unknown as vscode.ChatRequest;
    const handle = (request: vscode.ChatRequest, recorder: Recorder, token = new vscode.CancellationTokenSource().token): Promise<vscode.ChatResult> => {
      const command = deps.chatCommands.get('transcribe');
      assert.ok(command, '/transcribe is registered');
      return command.handle(request, { history: [] } as unknown as vscode.ChatContext, recorder.stream(), token);
    };

    it('shows the text and segments of an attached file and offers both saves', async () => {
      const recorder = new Recorder();
      const result = await handle(chatRequest('translate lang:de Stratus', [{ id: 'file', value: audio } as vscode.ChatPromptReference]), recorder);
      const text = recorder.markdown.join('');
      assert.match(text, /\*\*Translation of meeting\.wav\*\* \(whisper-large-v3 · German \(de\) · translated to English · 0:12 · 3 segment\(s\)/);
      assert.match(text, /> \[Stratus\] Segment 1 of the sandbox English translation of meeting\.wav\./);
      assert.match(text, /\| 2 \| 00:00:05\.000 \| 00:00:10\.000 \|/);
      assert.deepEqual(recorder.buttons.map((b) => b.title), ['Save as SRT', 'Save as WebVTT']);
      // One line per phase: the upload, then the wait (the transport reports the bytes sent).
      assert.deepEqual(recorder.progress, [`Uploading meeting.wav (${(wav.length / 1024).toFixed(1)} KB)…`, 'Waiting for the transcription…']);
      const id = (result.metadata as { resultId?: string }).resultId;
      assert.ok(id && results.get(id)?.result.segments.length === 3);
      assert.equal(recorder.buttons[0]?.arguments?.[0], id);
    });

    it('without an attachment, explains how to attach and offers the command', async () => {
      const recorder = new Recorder();
      await handle(chatRequest('', []), recorder);
      assert.match(recorder.markdown.join(''), /Attach an audio file/);
      assert.deepEqual(recorder.buttons.map((b) => b.command), ['stratus.transcribeFile']);
    });

    it('a non-audio attachment gets a clear message and no upload', async () => {
      const before = (await requests('/v1/audio/transcriptions')).length;
      const recorder = new Recorder();
      await handle(chatRequest('', [{ id: 'notes.mp3', value: { mimeType: 'audio/mpeg', data: async () => new Uint8Array(SIGNATURES.pdf) } } as vscode.ChatPromptReference]), recorder);
      assert.match(recorder.markdown.join(''), /notes\.mp3 is not an audio file Stratus can send: its content is a PDF document/);
      assert.equal((await requests('/v1/audio/transcriptions')).length, before);
    });

    it('cancelling aborts the upload request: the sandbox sees the client close early', async () => {
      await control('/latency', { ms: 60_000, pathPrefix: '/v1/audio/transcriptions' });
      const before = Math.max(0, ...(await requests('/v1/audio/transcriptions')).map((r) => r.seq));
      const source = new vscode.CancellationTokenSource();
      const recorder = new Recorder();
      const pending = handle(chatRequest('', [{ id: 'file', value: audio } as vscode.ChatPromptReference]), recorder, source.token);
      await eventually(async () => ((await requests('/v1/audio/transcriptions')).some((r) => r.seq > before) ? true : undefined), 'the upload reaching the sandbox');
      source.cancel();
      const result = await pending;
      assert.equal((result.metadata as { cancelled?: boolean }).cancelled, true);
      assert.match(recorder.markdown.join(''), /Transcription cancelled\./);
      await eventually(async () => ((await requests('/v1/audio/transcriptions')).find((r) => r.seq > before && r.clientClosedEarly) ? true : undefined), 'the sandbox to see the request closed early');
      await control('/latency', { ms: 0 });
    });
  });
});
