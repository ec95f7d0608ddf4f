// Fakes shared by the host suites that drive handlers and tools directly.
import * as vscode from 'vscode';
import { Redactor } from '../../src/core/http/redact';
import { silentLogger } from '../../src/core/log';
import type { Deps } from '../../src/features/deps';
import { ChatCommandRegistry } from '../../src/platform/chatCommands';
import { SecretKeys, SecretStore } from '../../src/platform/secrets';
import { readSettings } from '../../src/platform/settings';
import { ConnectionStatus } from '../../src/services/connectionStatus';
import { InstructionsService } from '../../src/services/repositoryInstructions';
import { WorkspaceTrustGate } from '../../src/services/workspaceTrust';
import { ConsoleConnection } from '../../src/services/consoleConnection';
import { InferenceConnection } from '../../src/services/inferenceConnection';

/** A chat response stream that records what a handler rendered. */
export class RecordingStream {
  readonly markdown: string[] = [];
  readonly buttons: vscode.Command[] = [];
  readonly anchors: Array<{ value: vscode.Location | vscode.Uri; title?: string }> = [];
  readonly references: unknown[] = [];
  readonly progress: string[] = [];

  get text(): string {
    return this.markdown.join('');
  }

  asStream(): vscode.ChatResponseStream {
    return {
      markdown: (value: string | vscode.MarkdownString) => void this.markdown.push(typeof value === 'string' ? value : value.value),
      button: (command: vscode.Command) => void this.buttons.push(command),
      anchor: (value: vscode.Location | vscode.Uri, title?: string) => void this.anchors.push({ value, ...(title ? { title } : {}) }),
      reference: (value: unknown) => void this.references.push(value),
      progress: (value: string) => void this.progress.push(value),
      filetree: () => undefined,
      push: () => undefined,
    } as unknown as vscode.ChatResponseStream;
  }
}

/** SecretStorage in memory: an API key, or the given values (shared with the caller). */
export function memorySecrets(initial: string | Map<string, string>): vscode.SecretStorage {
  const values = typeof initial === 'string' ? new Map<string, string>([[SecretKeys.inferenceApiKey, initial]]) : initial;
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  return {
    get: async (key: string) => values.get(key),
    store: async (key: string, value: string) => void values.set(key, value),
    delete: async (key: string) => void values.delete(key),
    onDidChange: changed.event,
  };
}

/** The services a feature receives, over an in-memory secret store holding `apiKey`; dispose them after. */
export function testDeps(label: string, apiKey: string): { deps: Deps; disposables: vscode.Disposable[] } {
  const redactor = new Redactor();
  const logChannel = vscode.window.createOutputChannel(label, { log: true });
  const secrets = new SecretStore(memorySecrets(apiKey), redactor);
  const inference = new InferenceConnection(secrets, silentLogger);
  const connectionStatus = new ConnectionStatus();
  const consoleConnection = new ConsoleConnection(secrets, silentLogger);
  const deps: Deps = { logger: silentLogger, logChannel, redactor, secrets, settings: readSettings, inference, console: consoleConnection, connectionStatus, chatCommands: new ChatCommandRegistry(), ...trustServices() };
  return { deps, disposables: [logChannel, inference, connectionStatus, consoleConnection] };
}

/** The trust gate and the instructions reader that asks it, as the composition root builds them. */
export function trustServices(): { trust: WorkspaceTrustGate; instructions: InstructionsService } {
  const trust = new WorkspaceTrustGate();
  return { trust, instructions: new InstructionsService(silentLogger, trust) };
}
