import * as vscode from 'vscode';
import { runAgent, toolDefinitions, type AgentOutcome, type AgentTool, type ToolInvoker } from '../../core/agent';
import { clampMaxRounds } from '../../core/agent/settings';
import { TodoList } from '../../core/agent/todoList';
import { parseTurnCaps, raiseCaps, type TurnSpend } from '../../core/agent/turnBudget';
import type { ChatMessage, ToolChoice } from '../../core/inference/chat/types';
import { supportsToolCalling, type ToolCallingOverrides } from '../../core/inference/models/capabilities';
import { keepsReasoningBetweenRounds } from '../../core/inference/models/reasoningEffort';
import { fitConversation } from '../../core/inference/models/fit';
import { estimateToolsTokens } from '../../core/inference/models/tokens';
import type { ModelInfo } from '../../core/inference/models/types';
import { chatErrorButtons } from '../../platform/errorNotification';
import { TurnDepth } from './agentDepth';
import type { TurnMetadata } from './history';
import type { Deps } from '../deps';
import { checkpointButtons } from '../../services/turnCheckpointActions';
import { capButtons } from './capActions';
import { VscodeToolInvoker } from './toolInvoker';
import { CLOUD_TOOLS, FILE_TOOLS, STRATUS_TOOL_PREFIX, ToolNames } from '../../core/agent/toolNames';
import { toolsContext } from '../../services/toolsContext';
import { TurnControl } from './turnControl';
import { resolveWorkspacePath } from '../../platform/toolWorkspace';
import { stratusConfiguration } from '../../platform/settings';

const SIGN_IN_HELPS: ReadonlySet<string> = new Set(['signedOut', 'notConfigured', 'rejected']);

/** What the chat handler hands over once it has chosen the model and built the conversation. */
export interface AgentTurnRequest {
  readonly request: vscode.ChatRequest;
  readonly stream: vscode.ChatResponseStream;
  readonly signal: AbortSignal;
  readonly model: ModelInfo;
  /** System prompt, history and the user's message, fitted to the model. */
  readonly messages: ChatMessage[];
  readonly maxTokens: number | undefined;
  /** Collects the text streamed so far: the handler keeps it if the turn fails or is cancelled. */
  readonly partial: { add(text: string): void };
  /** Tests: run tools without vscode.lm.invokeTool. */
  readonly invoker?: ToolInvoker;
  /** Instructions and compaction of this turn (absent: compaction only, with a summary store of its own). */
  readonly depth?: TurnDepth;
  /** Which tools this turn may offer (a custom agent's subset, plan mode's read-only tools); absent: all. */
  readonly allowTool?: (name: string) => boolean;
  /** The to-do list the conversation's newest answer kept (its result metadata), carried on. */
  readonly todo?: unknown;
  /** The cost caps of the settings times this (Continue after a stop at the cap doubles them). Default 1. */
  readonly capFactor?: number;
  /** What the stopped turn this one continues had spent: counted against the raised caps (they are a total). */
  readonly capSpent?: TurnSpend;
}

// The wire accepts function names of 1-64 letters, digits, _ and -.
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

// Tools of VS Code that only its own agent can drive (its confirmation flows, todo list, sub-agents,
// session control): never offered, whatever `stratus.agent.otherTools` says.
const AGENT_INTERNAL = /_internal$|^vscode_get_.*confirmation|^vscode_askQuestions$|^vscode_reviewPlan$|^manage_todo_list$|^task_complete$|^runSubagent$|^inline_chat_exit$|^setup_tools_/;

const TOOLS_GUIDANCE =
  'You can call tools to read and search the user\'s workspace, run allowlisted commands and tasks, propose edits and manage cloud resources. Use them when the question needs facts from the workspace or the cloud, then answer from their results. Tools that change something ask the user first; if the user declines, do not insist.';

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

function toolCallingOverrides(): ToolCallingOverrides {
  const raw = stratusConfiguration('stratus').get<Record<string, unknown>>('models.toolCalling', {}) ?? {};
  return Object.fromEntries(Object.entries(raw).filter((e): e is [string, boolean] => typeof e[1] === 'boolean'));
}

/** Stratus' tools plus the other tools of VS Code allowed by `stratus.agent.otherTools`, and any tool the user referenced. */
export function offeredTools(referenced: readonly string[] = []): AgentTool[] {
  const patterns = (stratusConfiguration('stratus').get<string[]>('agent.otherTools', ['*']) ?? []).filter((p) => typeof p === 'string').map(globToRegExp);
  const seen = new Set<string>();
  const out: AgentTool[] = [];
  for (const tool of vscode.lm.tools) {
    if (seen.has(tool.name) || !FUNCTION_NAME.test(tool.name) || AGENT_INTERNAL.test(tool.name)) continue;
    const ours = tool.name.startsWith(STRATUS_TOOL_PREFIX);
    if (!ours && !referenced.includes(tool.name) && !patterns.some((p) => p.test(tool.name))) continue;
    seen.add(tool.name);
    out.push({ name: tool.name, description: tool.description, parameters: (tool.inputSchema as Record<string, unknown> | undefined) ?? undefined });
  }
  return out;
}

/** The messages compaction never summarises: the system message and the user's latest message. */
function pinnedOf(messages: readonly ChatMessage[]): ChatMessage[] {
  const last = messages[messages.length - 1];
  const first = messages[0];
  return first?.role === 'system' && messages.length > 1 && last ? [first, last] : [...messages];
}

function withGuidance(messages: ChatMessage[], budget = ''): ChatMessage[] {
  const [first, ...rest] = messages;
  const guidance = budget ? `${TOOLS_GUIDANCE}\n\n${budget}` : TOOLS_GUIDANCE;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${guidance}` }, ...rest];
  return [{ role: 'system', content: guidance }, ...messages];
}

/**
 * The @stratus agent turn: offers the tools (when the model supports them), runs the loop with
 * VS Code's tool invocation (confirmations and progress in the Chat view), streams the answer and
 * references the files the tools read, and keeps every round in the result metadata.
 * Request errors are rethrown for the handler to present.
 */
export async function runAgentTurn(deps: Deps, turn: AgentTurnRequest): Promise<vscode.ChatResult> {
  const { request, stream, model, signal } = turn;
  const settings = stratusConfiguration('stratus');
  const referenced = (request.toolReferences ?? []).map((r) => r.name);
  const canUseTools = supportsToolCalling(model, toolCallingOverrides());
  if (!canUseTools) {
    stream.markdown(`> _${vscode.l10n.t('{0} is not known to support tool calls, so @stratus answers without tools. If it does, set {1}.', model.id, `\`"stratus.models.toolCalling": {"${model.id}": true}\``)}_\n\n`);
  }
  // The tools' schemas take context too: offer fewer (Stratus' own first) rather than overflow it.
  // Only what is never summarised counts here (system message with instructions, the user's
  // message); the rest of the conversation is compacted before each request (depth.prepare).
  const contextLength = model.maxModelLen ?? 32_768;
  const depth = turn.depth ?? new TurnDepth(deps, undefined, { conversationId: `turn-${Date.now().toString(36)}`, model, stream, signal });
  // The skill reader only where there is a skill: every schema offered takes context in every round.
  const hasSkills = canUseTools && (await deps.instructions.customizations.skills()).items.length > 0;
  let tools = canUseTools ? offeredTools(referenced).filter((t) => (turn.allowTool?.(t.name) ?? true) && (t.name !== ToolNames.readSkill || hasSkills)) : [];
  const offersSkillReader = (): boolean => tools.some((t) => t.name === ToolNames.readSkill);
  // The fit counts the skills list if the reader may be offered; it is dropped below if it is not.
  depth.offerSkills(offersSkillReader());
  const pinned = pinnedOf(await depth.withInstructions(turn.messages));
  const fit = (offered: readonly AgentTool[]): ReturnType<typeof fitConversation> =>
    fitConversation(offered.length > 0 ? withGuidance(pinned) : pinned, contextLength, { ...(turn.maxTokens !== undefined ? { maxTokens: turn.maxTokens } : {}), tools: toolDefinitions(offered) });
  let fitted = fit(tools);
  if (tools.length > 0 && !fitted.fits) {
    tools = tools.filter((t) => t.name.startsWith(STRATUS_TOOL_PREFIX) || referenced.includes(t.name));
    fitted = fit(tools);
    if (!fitted.fits) {
      tools = [];
      fitted = fit(tools);
      stream.markdown(`> _${vscode.l10n.t("The tools' descriptions do not fit in the context of {0}, so @stratus answers without tools.", model.id)}_\n\n`);
    }
  }
  // The skills list tells the model to call stratus_readSkill: only where this turn offers it.
  depth.offerSkills(offersSkillReader());
  const forced = referenced.length === 1 && tools.some((t) => t.name === referenced[0]) ? referenced[0] : undefined;
  const toolChoice: ToolChoice | undefined = forced ? { type: 'function', function: { name: forced } } : undefined;

  const factor = turn.capFactor !== undefined && turn.capFactor >= 1 ? turn.capFactor : 1;
  const caps = raiseCaps(parseTurnCaps({ maxTurnTokens: settings.get<unknown>('agent.maxTurnTokens'), maxTurnCostEur: settings.get<unknown>('agent.maxTurnCostEur') }), factor);
  const control = new TurnControl(stream, TodoList.from(turn.todo), caps, factor, deps.usage, turn.capSpent);
  if (tools.length > 0) control.start();
  // Compaction summaries are requests of this turn too: within its cost cap, and counted.
  depth.summaryCosts = { before: (summary) => control.beforeRequest(summary), spent: (usage) => control.onSummaryUsage(usage) };
  const roundBudget = { toolsTokens: estimateToolsTokens(toolDefinitions(tools)), reserveTokens: fitted.maxTokens };
  const context = toolsContext(deps);
  const invoker = turn.invoker ?? new VscodeToolInvoker(request.toolInvocationToken, undefined, deps.textCalls);
  const progress = context.progress.onDidReport((message) => stream.progress(message));
  const usedTools = new Set<string>();
  const referencedFiles = new Set<string>();
  const pendingReferences: Promise<void>[] = [];
  let thinkingShown = false;
  let textInRound = false;
  let textBefore = false;
  const recording = context.checkpoints?.begin();
  let outcome: AgentOutcome;
  try {
    outcome = await runAgent({
      client: deps.inference.client(),
      model: model.id,
      keepReasoning: keepsReasoningBetweenRounds(model.id, model.reasoning),
      messages: tools.length > 0 ? withGuidance(turn.messages, control.note) : turn.messages,
      prepareRequest: async (conversation) => {
        await Promise.all(pendingReferences);
        // Room for the to-do list, pinned to the system message once compaction leaves messages out.
        const pinned = Math.ceil(control.todo.systemNote().length / 3);
        const prepared = await depth.prepare(conversation, { ...roundBudget, toolsTokens: roundBudget.toolsTokens + pinned });
        return { ...prepared, messages: control.pinTodo(conversation, prepared.messages) };
      },
      beforeRequest: (next) => control.beforeRequest(next),
      betweenRounds: () => control.betweenRounds(),
      tools,
      // A quarter of the context, at most, for one tool result (characters ~ 4 per token).
      maxResultChars: Math.min(24_000, Math.max(2_000, contextLength)),
      // The checkpoint sees what tools that write unreported change while they run (services/turnCheckpoints.ts).
      invoker: control.wrap(recording ? recording.watch(invoker) : invoker),
      ...(toolChoice ? { toolChoice } : {}),
      maxRounds: clampMaxRounds(settings.get<unknown>('agent.maxRounds')),
      ...(fitted.maxTokens > 0 ? { maxTokens: fitted.maxTokens } : {}),
      signal,
      onEvent: (event) => {
        switch (event.type) {
          case 'round':
            thinkingShown = false;
            textBefore = textBefore || textInRound;
            textInRound = false;
            break;
          case 'text':
            if (!textInRound && textBefore) stream.markdown('\n\n');
            textInRound = true;
            turn.partial.add(event.text);
            stream.markdown(event.text);
            break;
          case 'thinking':
            if (!thinkingShown) stream.progress(vscode.l10n.t('Thinking…'));
            thinkingShown = true;
            break;
          case 'tool_start':
            usedTools.add(event.invocation.name);
            if (!request.toolInvocationToken && event.invocation.name !== ToolNames.todo) stream.progress(vscode.l10n.t('Running {0}…', event.invocation.name));
            break;
          case 'tool_end':
            if (event.invocation && FILE_TOOLS.has(event.invocation.name) && !event.outcome.isError && !event.outcome.declined) {
              const path = event.invocation.input.path;
              if (typeof path === 'string' && !referencedFiles.has(path)) {
                referencedFiles.add(path);
                pendingReferences.push(resolveWorkspacePath(path).then((file) => { depth.touched(file.uri); stream.reference(file.uri); }, () => undefined));
              }
            }
            break;
          case 'round_usage':
            control.onUsage(event.usage);
            break;
          default:
            break;
        }
      },
    });
  } finally {
    progress.dispose();
    // References land before the response ends (a closed stream refuses them).
    await Promise.all(pendingReferences);
    const checkpoint = await recording?.finish();
    try {
      control.finish();
      if (checkpoint) checkpointButtons(stream, checkpoint);
    } catch {
      // The response is closed (cancelled): the checkpoint stays in the history.
    }
  }

  // Only where signing in helps: not after a network or server error (the stored PAT is kept and tried again).
  const signInNeeded = [...usedTools].some((name) => CLOUD_TOOLS.has(name)) && SIGN_IN_HELPS.has(deps.console.state.kind);
  if (signInNeeded) chatErrorButtons(stream, ['signIn']);
  const metadata: TurnMetadata = { model: model.id, conversationId: depth.conversationId, messages: outcome.messages, ...(outcome.finishReason ? { finishReason: outcome.finishReason } : {}), ...(control.todo.size > 0 ? { todo: control.todo.state() } : {}) };
  switch (outcome.status) {
    case 'answered':
      deps.connectionStatus.set({ kind: 'connected', model: model.id });
      if (outcome.finishReason === 'length') stream.markdown(`\n\n_(${vscode.l10n.t('The answer reached its length limit.')})_`);
      return { metadata };
    case 'round_limit':
    case 'repeated_failure':
      deps.connectionStatus.set({ kind: 'connected', model: model.id });
      stream.markdown(`\n\n**${outcome.message ?? vscode.l10n.t('Stopped.')}**`);
      return { metadata };
    case 'stopped':
      deps.connectionStatus.set({ kind: 'connected', model: model.id });
      stream.markdown(`\n\n**${outcome.message ?? vscode.l10n.t('Stopped.')}**\n\n`);
      if (!control.stop) return { metadata };
      capButtons(stream, control.stop.id);
      return { metadata: { ...metadata, capStop: control.stop } };
    case 'cancelled':
      return { metadata: { ...metadata, incomplete: 'cancelled' } satisfies TurnMetadata };
    case 'error':
      throw outcome.error;
  }
}
