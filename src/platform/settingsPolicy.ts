import type * as vscode from 'vscode';

/*
 * The one rule for what a workspace may set (issue 40 item 15): a value from a workspace or a
 * folder's `.vscode/settings.json` (a cloned repository's) may only make Stratus send less or ask
 * more, never the reverse. Every setting in package.json's `contributes.configuration` is in
 * SETTING_POLICIES (a unit test walks package.json and fails on one that is not):
 * - `user`: only the user's value counts. Every `machine`/`application` setting (VS Code keeps a
 *   workspace out already; this keeps it out on any host), and window settings with no safe
 *   direction (the account's tier and prices, which models get tools, which other tools are offered).
 * - `offOnly`: a boolean whose `true` sends something: a workspace may turn it off, not on.
 * - `onOnly`: a boolean whose `true` sends less: a workspace may turn it on, not off.
 * - `lowerOnly`: a number where lower sends less or asks sooner (a size, a count, a threshold of
 *   confirmation): a workspace value counts only below the user's (a `null` of the user's: no limit).
 * - `higherOnly`: a number where higher sends less (a debounce): counted only above the user's.
 * - `offOnlyMap`: an object of booleans (language id -> on): a workspace may turn entries off only.
 * - `order`: an enum, safest first: a workspace value counts only if it is no further down.
 * - `free`: presentation and timing that changes neither what is sent nor what is asked.
 * This module has no `vscode` at run time, so plain Node tests read it; `settings.ts` applies it.
 */
export type SettingPolicy =
  | { readonly kind: 'user' | 'offOnly' | 'onOnly' | 'lowerOnly' | 'higherOnly' | 'offOnlyMap' | 'free' }
  | { readonly kind: 'order'; readonly safestFirst: readonly string[] };

const user = { kind: 'user' } as const;
const offOnly = { kind: 'offOnly' } as const;
const onOnly = { kind: 'onOnly' } as const;
const lowerOnly = { kind: 'lowerOnly' } as const;
const higherOnly = { kind: 'higherOnly' } as const;
const free = { kind: 'free' } as const;

/** Every Stratus setting, by its full key. */
export const SETTING_POLICIES: Readonly<Record<string, SettingPolicy>> = {
  // Where secrets go and what is sent with them (application scope).
  'stratus.inference.baseUrl': user,
  'stratus.inference.headers': user,
  'stratus.console.baseUrl': user,
  'stratus.console.headers': user,
  'stratus.console.resourcePaths': user,
  // The console's MCP server and its writes: the user's own decision, never a repository's (application scope).
  'stratus.mcp.enabled': user,
  'stratus.mcp.allowWrites': user,
  'stratus.models.extraBody': user,
  'stratus.models.overrides': user,
  'stratus.models.reasoningEffort': user,
  'stratus.models.textToolCalls': user,
  'stratus.tools.commandAllowlist': user,
  'stratus.tools.editPreview': user,
  'stratus.agent.instructionsFile': user,
  'stratus.agent.autoApproveCommands': user,
  'stratus.agent.promptFilesFolder': user,
  'stratus.agent.maxTurnTokens': user,
  'stratus.agent.maxTurnCostEur': user,
  // Window settings with no safe direction: the user's alone.
  'stratus.models.toolCalling': user,
  'stratus.agent.otherTools': user,
  'stratus.usage.tier': user,
  'stratus.usage.upfrontCredit': user,
  'stratus.usage.cachedInputRate': user,
  // Booleans that send.
  'stratus.completion.inline.enabled': offOnly,
  'stratus.nextEdit.enabled': offOnly,
  'stratus.agent.useInstructionFiles': offOnly,
  'stratus.search.rerank.enabled': offOnly,
  'stratus.search.backgroundIndexing': offOnly,
  'stratus.usage.waitAtCap': offOnly,
  'stratus.completion.inline.languages': { kind: 'offOnlyMap' },
  // Booleans that hold back.
  'stratus.search.useGitignore': onOnly,
  // Sizes, counts and thresholds of confirmation.
  'stratus.edit.costPreviewLines': lowerOnly,
  'stratus.review.confirmAboveTokens': lowerOnly,
  'stratus.agent.maxRounds': lowerOnly,
  'stratus.tools.maxFileBytes': lowerOnly,
  'stratus.search.maxFileSizeKB': lowerOnly,
  'stratus.search.candidates': lowerOnly,
  'stratus.search.results': lowerOnly,
  'stratus.transcription.maxFileSizeMB': lowerOnly,
  'stratus.documents.maxPages': lowerOnly,
  'stratus.documents.maxFileSizeMB': lowerOnly,
  'stratus.usage.monthlyBudget': lowerOnly,
  'stratus.completion.inline.debounceMs': higherOnly,
  'stratus.documents.mode': { kind: 'order', safestFirst: ['auto', 'ocrAll'] },
  // Which of the provider's models answers, timing, batching, presentation: free.
  'stratus.chat.model': free,
  'stratus.completion.inline.model': free,
  'stratus.nextEdit.model': free,
  'stratus.models.kindOverrides': free,
  'stratus.search.rerank.model': free,
  'stratus.search.rerank.apiVersion': free,
  'stratus.search.embeddings.model': free,
  'stratus.transcription.model': free,
  'stratus.transcription.language': free,
  'stratus.documents.model': free,
  'stratus.search.demoteGlobs': free,
  'stratus.search.rerank.batchSize': free,
  'stratus.search.rerank.concurrency': free,
  'stratus.documents.concurrency': free,
  'stratus.search.rerank.timeoutSeconds': free,
  'stratus.inference.requestTimeoutSeconds': free,
  'stratus.inference.idleTimeoutSeconds': free,
  'stratus.network.maxRetryWaitSeconds': free,
  'stratus.console.activityTimeoutMinutes': free,
  'stratus.tools.taskTimeoutSeconds': free,
  'stratus.agent.terminalTimeoutSeconds': free,
  'stratus.agent.checkpointTurns': free,
};

type Inspected = NonNullable<ReturnType<vscode.WorkspaceConfiguration['inspect']>>;

function isBooleanMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The user's value: the user's settings (a language's first), else the default; objects merged over the default as VS Code does. */
function userValue(inspected: Inspected): unknown {
  const global = inspected.globalLanguageValue ?? inspected.globalValue;
  const fallback = inspected.defaultLanguageValue ?? inspected.defaultValue;
  if (isBooleanMap(global) && isBooleanMap(fallback)) return { ...fallback, ...global };
  return global ?? fallback;
}

/** The most specific workspace value (folder before workspace, a language's before the plain one), or undefined. */
function workspaceValue(inspected: Inspected): unknown {
  return inspected.workspaceFolderLanguageValue ?? inspected.workspaceFolderValue ?? inspected.workspaceLanguageValue ?? inspected.workspaceValue;
}

/** What a workspace value changes of the user's value under `policy`: only what sends less or asks more. */
export function bounded(policy: SettingPolicy, base: unknown, workspace: unknown): unknown {
  if (workspace === undefined) return base;
  switch (policy.kind) {
    case 'free': return workspace;
    case 'user': return base;
    case 'offOnly': return workspace === false ? false : base;
    case 'onOnly': return workspace === true ? true : base;
    case 'lowerOnly':
      if (typeof workspace !== 'number' || !Number.isFinite(workspace)) return base;
      return typeof base === 'number' && base <= workspace ? base : workspace;
    case 'higherOnly':
      if (typeof workspace !== 'number' || !Number.isFinite(workspace)) return base;
      return typeof base === 'number' && base >= workspace ? base : workspace;
    case 'offOnlyMap': {
      if (!isBooleanMap(workspace)) return base;
      const offs = Object.entries(workspace).filter(([, v]) => v === false);
      return { ...(isBooleanMap(base) ? base : {}), ...Object.fromEntries(offs) };
    }
    case 'order': {
      const at = typeof workspace === 'string' ? policy.safestFirst.indexOf(workspace) : -1;
      const baseAt = typeof base === 'string' ? policy.safestFirst.indexOf(base) : policy.safestFirst.length;
      return at >= 0 && at <= (baseAt < 0 ? policy.safestFirst.length : baseAt) ? workspace : base;
    }
  }
}

/** The value in force of `key` (full key) from what `inspect()` reports, under its policy. */
export function valueInForce(key: string, inspected: Inspected | undefined): unknown {
  if (!inspected) return undefined;
  const policy = SETTING_POLICIES[key];
  // A key package.json does not declare has no policy: only the user's value counts.
  return bounded(policy ?? user, userValue(inspected), workspaceValue(inspected));
}

/**
 * Whether `value`, written to a workspace or folder, would be held back by the rule (it loosens
 * what the user set): a toggle that turns something on then writes the user's settings too.
 */
export function heldBack(key: string, inspected: Inspected | undefined, value: unknown): boolean {
  const policy = SETTING_POLICIES[key] ?? user;
  const base = inspected ? userValue(inspected) : undefined;
  return JSON.stringify(bounded(policy, base, value)) !== JSON.stringify(value);
}

/** The reads of a configuration section, each under the rule above; what the platform reader hands out. */
export interface BoundedConfiguration {
  get<T>(key: string): T | undefined;
  get<T>(key: string, fallback: T): T;
}

/** `config` (VS Code's, for `section`) read under the rule. */
export function boundedConfiguration(config: Pick<vscode.WorkspaceConfiguration, 'inspect'>, section: string): BoundedConfiguration {
  return {
    get<T>(key: string, fallback?: T): T | undefined {
      const value = valueInForce(section ? `${section}.${key}` : key, config.inspect<T>(key));
      return value === undefined ? fallback : (value as T);
    },
  };
}
