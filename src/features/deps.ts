import type * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { Redactor } from '../core/http/redact';
import type { ChatCommandRegistry } from '../platform/chatCommands';
import type { ConsoleConnection } from '../services/consoleConnection';
import type { InferenceConnection } from '../services/inferenceConnection';
import type { SecretStore } from '../platform/secrets';
import type { ConnectionStatus } from '../services/connectionStatus';
import type { StratusSettings } from '../platform/settings';
import type { InstructionsService } from '../services/repositoryInstructions';
import type { WorkspaceTrustGate } from '../services/workspaceTrust';

/** What the composition root builds once and hands to every feature's register(). */
export interface Deps {
  readonly logger: Logger;
  readonly logChannel: vscode.LogOutputChannel;
  readonly redactor: Redactor;
  readonly secrets: SecretStore;
  readonly settings: () => StratusSettings;
  readonly inference: InferenceConnection;
  readonly console: ConsoleConnection;
  /** Last known state of the inference connection (status bar). */
  readonly connectionStatus: ConnectionStatus;
  /** `/commands` of `@stratus` that other features provide (search, transcribe, usage). */
  readonly chatCommands: ChatCommandRegistry;
  /** The one Workspace Trust gate: "may this run, read or write here?" (never `workspace.isTrusted` directly). */
  readonly trust: WorkspaceTrustGate;
  /** The one reader of repository instructions (AGENTS.md and the like), for the agent and for edits. */
  readonly instructions: InstructionsService;
}
