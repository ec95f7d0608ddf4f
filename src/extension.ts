import * as vscode from 'vscode';
import { Redactor } from './core/http/redact';
import { ChatCommandRegistry } from './platform/chatCommands';
import { ConnectionStatus } from './services/connectionStatus';
import { WalkthroughProgress } from './services/walkthroughProgress';
import { ConsoleConnection } from './services/consoleConnection';
import { DisposableStore } from './platform/disposables';
import { createConsolePathMemory } from './platform/consolePathMemory';
import { InferenceConnection } from './services/inferenceConnection';
import { InstructionsService } from './services/repositoryInstructions';
import { TextCallApprovals } from './services/textCallApprovals';
import { WorkspaceTrustGate, type TrustFake } from './services/workspaceTrust';
import { createLogger } from './platform/logger';
import type { SharedNetwork } from './platform/networkOptions';
import { createPlainHttpGate } from './platform/plainHttpPrompt';
import { SecretStore } from './platform/secrets';
import { readSettings } from './platform/settings';
import type { Deps } from './features/deps';
import * as account from './features/account/register';
import * as batch from './features/batch/register';
import { BatchJobService } from './services/batchJobs';
import { FollowLeases } from './core/inference/batch/followLease';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import * as chat from './features/chat/register';
import * as plan from './features/plan/register';
import * as commitMessage from './features/commitMessage/register';
import * as completion from './features/completion/register';
import * as customization from './features/customization/register';
import * as diagnostics from './features/diagnostics/register';
import * as edit from './features/edit/register';
import * as gateway from './features/gateway/register';
import * as documents from './features/documents/register';
import { CompletionStats } from './core/usage/completionStats';
import * as inlineCompletion from './features/inlineCompletion/register';
import * as mcp from './features/mcp/register';
import * as models from './features/models/register';
import * as nextEdit from './features/nextEdit/register';
import * as networkActivity from './features/network/register';
import * as onboarding from './features/onboarding/register';
import * as quickFix from './features/quickFix/register';
import * as resources from './features/resources/register';
import * as review from './features/review/register';
import * as search from './features/search/register';
import * as tools from './features/tools/register';
import * as transcription from './features/transcription/register';
import * as usage from './features/usage/register';

/** What activate() returns in ExtensionMode.Test only (host tests); undefined in any other mode. */
export interface StratusApi {
  /** Wall time of activate(), in milliseconds. */
  readonly activationMs: number;
  /** Where the Stratus log channel writes (for support bundles and tests). */
  readonly logDirectory: string;
  /** Chat participants this activation registered. */
  readonly registeredParticipants: readonly string[];
  /** Which secrets are stored; never their values. */
  secretsStatus(): Promise<{ apiKey: boolean; pat: boolean }>;
  /** The views' data providers, for host tests and extensions that build on the explorer. */
  readonly views: {
    readonly resources: vscode.TreeDataProvider<unknown>;
    readonly activities: vscode.TreeDataProvider<unknown>;
    /** Current console sign-in state (`signedIn`, `rejected`, ...). */
    consoleState(): string;
  };
  /** First-run walkthrough and its context keys: in ExtensionMode.Test only. */
  readonly onboarding?: onboarding.OnboardingTestApi;
  /** Inline completion's provider and status: in ExtensionMode.Test only. */
  readonly inlineCompletion?: inlineCompletion.InlineCompletionTestApi;
  /** Next edit suggestions' state: in ExtensionMode.Test only. */
  readonly nextEdit?: nextEdit.NextEditTestApi;
  /** Usage meter and view internals: in ExtensionMode.Test only. */
  readonly usage?: usage.UsageTestApi;
  /** The trust gate (faked untrusted by tests: code-server runs with trust disabled) and the registered tools. */
  readonly trust?: {
    fake(trusted: boolean): TrustFake;
    readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<never>>;
  };
  /** Document view internals: in ExtensionMode.Test only. */
  readonly documents?: documents.DocumentsTestApi;
  /** Network Activity recorder and view: in ExtensionMode.Test only. */
  readonly network?: networkActivity.NetworkTestApi;
  /** Batch jobs and Run Prompt over Files: in ExtensionMode.Test only. */
  readonly batch?: batch.BatchTestApi;
  readonly searchEmbeddingsBatch?: search.SearchFeature['embeddingsBatch'];
  /** The console's MCP server provider: in ExtensionMode.Test only. */
  readonly mcp?: mcp.McpTestApi;
}

/** Composition root: build dependencies once, then hand them to each feature. */
export function activate(context: vscode.ExtensionContext): StratusApi | undefined {
  const started = performance.now();
  const store = new DisposableStore();
  context.subscriptions.push(store);

  // Internals are exported, and command arguments may skip a person's step, in test mode only.
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  const logChannel = store.add(vscode.window.createOutputChannel('Stratus', { log: true }));
  const redactor = new Redactor();
  const logger = createLogger(logChannel, redactor);
  const secrets = new SecretStore(context.secrets, redactor, process.env);
  const plainHttp = createPlainHttpGate(context.globalState);
  const traffic = networkActivity.createNetworkActivity();
  const network: SharedNetwork = { redactor, beforeSecretSent: (url, secretName, param) => plainHttp.check(url, secretName, param), traffic: traffic.activity };
  const usageRuntime = store.add(usage.createUsageRuntime(context, logger));
  const trust = store.add(new WorkspaceTrustGate());
  const deps: Deps = {
    logChannel,
    redactor,
    logger,
    secrets,
    settings: readSettings,
    inference: store.add(new InferenceConnection(secrets, logger, network, usageRuntime.hooks)),
    console: store.add(new ConsoleConnection(secrets, logger, network, createConsolePathMemory(context.globalState))),
    connectionStatus: store.add(new ConnectionStatus()),
    chatCommands: new ChatCommandRegistry(),
    trust,
    instructions: store.add(new InstructionsService(logger, trust)),
    walkthrough: store.add(new WalkthroughProgress()),
    textCalls: new TextCallApprovals(),
    // Read at each agent turn (the meter is built lazily, never at activation).
    usage: { snapshot: () => usageRuntime.meter.snapshot(), currentSettings: () => usageRuntime.meter.currentSettings() },
  };

  store.add(diagnostics.register(deps));
  store.add(account.register(deps, { testMode }));
  store.add(gateway.register(deps, { testMode }));
  store.add(models.register(deps));
  store.add(chat.register(deps, context.extensionUri));
  store.add(customization.register(deps));
  store.add(plan.register(deps));
  store.add(completion.register(deps));
  store.add(edit.register(deps, context.globalState));
  // The tier back-off reads the usage meter only when a completion is asked for (never at activation).
  // Acceptance statistics go to the usage store (the Usage view's Completion section).
  const telemetry = new CompletionStats({ record: (event) => usageRuntime.meter.record(event) });
  const inlineFeature = inlineCompletion.register(deps, { usage: () => usageRuntime.meter.snapshot(), telemetry });
  store.add(inlineFeature.disposable);
  // Next edit suggestions share ghost text's gates, model, back-off and context, and its provider for an insertion at the cursor.
  const nextEditFeature = nextEdit.register(deps, inlineFeature.shared, context.extensionUri);
  store.add(nextEditFeature.disposable);
  // Batch jobs: ids kept in global storage and followed from activation (nothing is sent when there is none).
  // Built before the features that send jobs of their own kind (search embeddings, document OCR).
  // One window follows each job (every window resumes them): a lease per job, shared through global storage.
  const leases = new FollowLeases({ dir: vscode.Uri.joinPath(context.globalStorageUri, 'batch-leases').fsPath, owner: randomUUID() });
  const batchJobs = store.add(new BatchJobService(context.globalState, deps.inference, logger, { tmpDir: tmpdir, onUsage: (event) => usageRuntime.meter.record(event), leases }));
  const workspaceSearch = store.add(search.register(deps, context, { batchJobs, testMode }));
  // Ghost text looks up the definitions near the cursor in the search index (read only, local).
  inlineFeature.setDefinitionSearch(workspaceSearch.service);
  const toolsFeature = tools.register(deps, { rankedSearch: workspaceSearch, storageUri: context.storageUri });
  store.add(toolsFeature.disposable);
  store.add(transcription.register(deps));
  const documentsFeature = documents.register(deps, { extensionUri: context.extensionUri, storageUri: context.storageUri, globalStorageUri: context.globalStorageUri }, batchJobs);
  store.add(documentsFeature.disposable);
  store.add(commitMessage.register(deps));
  store.add(quickFix.register(deps));
  store.add(review.register(deps));
  const explorer = resources.register(deps, { testMode, batches: batchJobs });
  store.add(explorer.disposable);
  const batchFeature = batch.register(deps, { service: batchJobs, testMode });
  store.add(batchFeature.disposable);
  const usageFeature = usage.register(deps, context.extensionUri, usageRuntime);
  store.add(usageFeature.disposable);
  const networkFeature = networkActivity.register(traffic);
  store.add(networkFeature.disposable);
  // The console's tools as an MCP server for VS Code's MCP hosts (off until the user turns it on).
  const mcpFeature = mcp.register(deps, { extensionUri: context.extensionUri, globalStorageUri: context.globalStorageUri, version: String(context.extension.packageJSON.version) }, testMode);
  store.add(mcpFeature.disposable);
  const onboardingFeature = onboarding.register(deps, { globalState: context.globalState, extensionId: context.extension.id, testMode });
  store.add(onboardingFeature.disposable);

  const activationMs = performance.now() - started;
  logger.info(`Stratus ${String(context.extension.packageJSON.version)} activated in ${activationMs.toFixed(1)} ms.`);
  if (!testMode) return undefined;
  return {
    activationMs,
    logDirectory: context.logUri.fsPath,
    registeredParticipants: [chat.PARTICIPANT_ID],
    secretsStatus: () => account.secretsStatus(deps.secrets),
    views: {
      resources: explorer.resources as vscode.TreeDataProvider<unknown>,
      activities: explorer.activities as vscode.TreeDataProvider<unknown>,
      consoleState: () => deps.console.state.kind,
    },
    trust: { fake: (trusted) => deps.trust.fake(trusted), tools: toolsFeature.tools },
    usage: usageFeature.testApi,
    documents: documentsFeature.testApi,
    inlineCompletion: inlineFeature.testApi,
    nextEdit: nextEditFeature.testApi,
    onboarding: onboardingFeature.testApi,
    network: networkFeature.testApi,
    batch: batchFeature.testApi,
    searchEmbeddingsBatch: workspaceSearch.embeddingsBatch,
    mcp: mcpFeature.testApi,
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
