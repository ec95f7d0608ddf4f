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
import type { TextCallApprovals } from '../services/textCallApprovals';
import type { WorkspaceTrustGate } from '../services/workspaceTrust';
import type { WalkthroughProgress } from '../services/walkthroughProgress';
import type { UsageSnapshot } from '../core/usage/summary';
import type { UsageSettings } from '../core/usage/settings';

/** The usage meter's live figures, as the agent turn reads them (its cost cap, the tier's allowance). */
export interface UsageReader {
  snapshot(): UsageSnapshot;
  currentSettings(): UsageSettings;
}

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
  /** What the user did that completes a walkthrough step, told by the feature where it happened (absent in tests that build none). */
  readonly walkthrough?: WalkthroughProgress;
  /** Tool calls read from a model's text: never auto-approved (every Stratus tool is registered through its guard). Absent in tests: asked about in a dialog. */
  readonly textCalls?: TextCallApprovals;
  /** The usage meter (absent in tests that build no meter: the turn then prices at the contract's rates and knows no allowance). */
  readonly usage?: UsageReader;
}
