import * as vscode from 'vscode';
import { isStratusError } from '../../core/errors';
import type { ChatMessage, ContentPart } from '../../core/inference/chat/types';
import { MemorySummaryStore, type SummaryStore } from '../../core/agent/compaction';
import { estimateMessageTokens } from '../../core/inference/models/tokens';
import type { ModelInfo } from '../../core/inference/models/types';
import { inlineCode } from '../../core/markdown';
import { presentError } from '../../core/presentError';
import { toAbortSignal } from '../../platform/cancellation';
import type { TurnShape } from '../../platform/chatCommands';
import { chatErrorButtons } from '../../platform/errorNotification';
import { Commands } from '../commands';
import type { Deps } from '../deps';
import { PLACEHOLDER_ID, VENDOR, modelOutputBudget } from '../../platform/languageModelInfo';
import { effortFromPrompt, pickEffort } from './effortCommand';
import { effortLabel } from '../../platform/reasoningEffortLabel';
import { defaultChatModel, pickChatModel } from '../../services/chatModelSelection';
import { notConfigured } from './responses';
import { AgentDepth, conversationIdOf, TurnDepth } from './agentDepth';
import { carriedTodo, COMPACT_COMMAND, historyMessages, newestAnswer, type Incompleteness, type TurnMetadata } from './history';
import type { CapGrants, Continuation } from './capActions';
import { resolveReferences } from './references';
import { runAgentTurn } from './agentTurn';

export const PARTICIPANT_ID = 'stratus.chat';

const SYSTEM_PROMPT = [
  'You are Stratus, a coding and cloud-operations assistant inside VS Code, answering with models hosted on a sovereign cloud.',
  'Answer in Markdown. Put code in fenced blocks with a language tag. Be concise and precise.',
].join(' ');

/**
 * The @stratus request handler. `depth` (instructions cache, summaries per conversation) is owned
 * by the participant's registration; without it (tests driving the handler) there are no
 * repository instructions and summaries are kept by this handler.
 */
export function createHandler(deps: Deps, depth?: AgentDepth): vscode.ChatRequestHandler {
  const summaries: SummaryStore = depth?.summaries ?? new MemorySummaryStore();
  const turnDepth = (context: vscode.ChatContext, stream: vscode.ChatResponseStream, signal: AbortSignal, model: ModelInfo, contextUris: readonly vscode.Uri[]): TurnDepth =>
    new TurnDepth(deps, depth, { conversationId: conversationIdOf(context), model, stream, signal, contextUris }, summaries);
  return async (request, context, stream, token): Promise<vscode.ChatResult> => {
    // Commands other features provide check their own set-up (/usage needs no API key).
    const provided = deps.chatCommands.get(request.command);
    if (provided) return provided.handle(request, context, stream, token);

    const configured = await deps.inference.isConfigured();
    if (!configured.apiKey || !configured.baseUrl) return notConfigured(stream, configured.apiKey ? 'baseUrl' : 'apiKey');

    if (request.command === 'model') return pickModelCommand(deps, request, stream, token);
    if (request.command === COMPACT_COMMAND) return compactCommand(deps, turnDepth, request, context, stream, token);
    // The turn after a Continue click carries on the stopped one: raised caps, its spend, its shape.
    const continued = depth?.capGrants.continuation(newestAnswer(context, PARTICIPANT_ID));
    let shaped: TurnShape | { readonly result: vscode.ChatResult };
    try {
      shaped = request.command === undefined && continued?.shape ? continued.shape : await shapeTurn(deps, request, context, stream, token);
    } catch (error) {
      // A shaper's failure (a file it could not read, a dialog that failed) is shown like the turn's own.
      return failed(deps, error, { request, stream, partial: '', model: undefined });
    }
    if ('result' in shaped) return shaped.result;
    if (token.isCancellationRequested) return {};
    return answer(deps, turnDepth, depth?.capGrants, request, context, stream, token, shaped, continued);
  };
}

/** The shape of this turn from its command's shaper (or the ambient ones): the first that answers. */
async function shapeTurn(deps: Deps, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<TurnShape | { readonly result: vscode.ChatResult }> {
  for (const shaper of deps.chatCommands.shapersFor(request.command)) {
    const shaped = await shaper.shape(request, context, stream, token);
    // Cancelled while a shaper asked (a quick pick, an input box): nothing is sent.
    if (token.isCancellationRequested) return { result: {} };
    if (shaped) return shaped;
  }
  return {};
}

async function pickModelCommand(deps: Deps, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  if (request.prompt.trim()) {
    // `/model high`: the effort of the model in use, no picker.
    const abort = toAbortSignal(token);
    try {
      const current = await chooseModel(request, deps, abort.signal);
      if (current && (await effortFromPrompt(request.prompt, current.id, stream))) return {};
    } finally {
      abort.dispose();
    }
  }
  const chosen = await pickChatModel(deps.inference);
  stream.markdown(chosen ? vscode.l10n.t('`@stratus` now uses **{0}**.', chosen) : vscode.l10n.t('Model unchanged.'));
  if (chosen && (await pickEffort(chosen)) !== undefined) {
    const label = effortLabel(chosen);
    if (label) stream.markdown(` (${label})`);
  }
  return {};
}

/** The answer text streamed so far: kept (and marked incomplete) if the stream breaks. */
class PartialAnswer {
  private readonly parts: string[] = [];
  add(text: string): void {
    this.parts.push(text);
  }
  get text(): string {
    return this.parts.join('');
  }
}

/** The conversation to send, or the result to return instead (nothing was sent). */
type Prepared = { messages: ChatMessage[]; maxTokens: number } | { refused: vscode.ChatResult };

type TurnDepthFactory = (context: vscode.ChatContext, stream: vscode.ChatResponseStream, signal: AbortSignal, model: ModelInfo, contextUris: readonly vscode.Uri[]) => TurnDepth;

/** The files a request attaches (their AGENTS.md and applyTo instructions apply). */
function attachedUris(request: vscode.ChatRequest): vscode.Uri[] {
  return request.references.flatMap((r) => (r.value instanceof vscode.Uri ? [r.value] : r.value instanceof vscode.Location ? [r.value.uri] : []));
}

/** `/compact`: summarises the conversation so far now (one model request), for the next turns to reuse. */
async function compactCommand(deps: Deps, turnDepth: TurnDepthFactory, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const abort = toAbortSignal(token);
  try {
    const model = await chooseModel(request, deps, abort.signal);
    if (!model) {
      stream.markdown(vscode.l10n.t('The service lists no chat model.'));
      return { metadata: { error: true, compacted: true } satisfies TurnMetadata };
    }
    const depth = turnDepth(context, stream, abort.signal, model, []);
    const metadata: TurnMetadata = { model: model.id, conversationId: depth.conversationId, compacted: true };
    const history = historyMessages(context, PARTICIPANT_ID);
    if (history.length === 0) {
      stream.markdown(vscode.l10n.t('Nothing to summarise yet: this conversation has no earlier messages.'));
      return { metadata };
    }
    const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, ...history, { role: 'user', content: request.prompt.trim() || 'Continue.' }];
    await depth.prepare(messages, { toolsTokens: 0, reserveTokens: modelOutputBudget(model) }, true);
    if (depth.made === 0 && !depth.summaryFailed) stream.markdown(vscode.l10n.t('Nothing new to summarise: the earlier messages are already summarised.'));
    return { metadata };
  } catch (error) {
    return failed(deps, error, { request, stream, partial: '', model: undefined });
  } finally {
    abort.dispose();
  }
}

async function answer(deps: Deps, turnDepth: TurnDepthFactory, capGrants: CapGrants | undefined, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken, shape: TurnShape, continued: Continuation | undefined): Promise<vscode.ChatResult> {
  const abort = toAbortSignal(token);
  const partial = new PartialAnswer();
  let model: ModelInfo | undefined;
  try {
    const shapedModel = shape.model ? await deps.inference.client().models.find(shape.model, abort.signal) : undefined;
    model = shapedModel ?? (await chooseModel(request, deps, abort.signal));
    if (!model) {
      stream.markdown(vscode.l10n.t('The service lists no chat model.'));
      return { metadata: { error: true } satisfies TurnMetadata };
    }
    if (shape.model && !shapedModel) stream.markdown(`> _${vscode.l10n.t('The model {0} named by the custom agent or prompt file is not served: {1} answers instead.', inlineCode(shape.model), inlineCode(model.id))}_\n\n`);
    const prepared = await prepare(deps, request, context, stream, model, shape);
    if ('refused' in prepared) return prepared.refused;
    const depth = turnDepth(context, stream, abort.signal, model, [...attachedUris(request), ...(shape.attachments ?? [])]);
    const todo = carriedTodo(context, PARTICIPANT_ID);
    const carried = { ...(todo ? { todo } : {}), ...(continued ? { capFactor: continued.factor, capSpent: continued.spent } : {}) };
    const result = await runAgentTurn(deps, { request, stream, signal: abort.signal, model, messages: prepared.messages, maxTokens: prepared.maxTokens, partial, depth, ...carried, ...(shape.allowTool ? { allowTool: shape.allowTool } : {}) });
    const ended = result.metadata as TurnMetadata | undefined;
    // Continue runs a turn of the same shape (plan mode, a prompt file's tools), so it is kept with the stop.
    if (ended?.capStop) capGrants?.stopped(ended.capStop.id, shape);
    if (shape.finish && !result.errorDetails && !ended?.incomplete && !ended?.capStop) shape.finish(partial.text, stream);
    const shaped = { ...(shape.metadata ?? {}), ...(shape.prompt !== undefined ? { prompt: shape.prompt } : {}) };
    return Object.keys(shaped).length > 0 ? { ...result, metadata: { ...shaped, ...(result.metadata ?? {}) } } : result;
  } catch (error) {
    return failed(deps, error, { request, stream, partial: partial.text, model: model?.id });
  } finally {
    abort.dispose();
  }
}

/** The model for this request: the one picked in VS Code's model picker if it is ours, else the default. */
async function chooseModel(request: vscode.ChatRequest, deps: Deps, signal: AbortSignal): Promise<ModelInfo | undefined> {
  const picked = request.model;
  if (picked.vendor === VENDOR && picked.id !== PLACEHOLDER_ID) {
    const catalog = deps.inference.client().models;
    return (await catalog.find(picked.id, signal)) ?? { id: picked.id, kind: catalog.kindOf(picked.id), created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: picked.maxInputTokens };
  }
  return defaultChatModel(deps.inference, signal);
}

function userMessage(prompt: string, context: readonly string[], images: readonly ContentPart[]): ChatMessage {
  const text = context.length > 0 ? `${context.join('\n\n')}\n\n${prompt}` : prompt;
  return images.length > 0 ? { role: 'user', content: [{ type: 'text', text }, ...images] } : { role: 'user', content: text };
}

/** Reads the attachments and fits the conversation to the model, or explains why it cannot be sent. */
async function prepare(deps: Deps, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, model: ModelInfo, shape: TurnShape = {}): Promise<Prepared> {
  const refused = (text: string): Prepared => {
    stream.markdown(text);
    chatErrorButtons(stream, ['pickModel']);
    return { refused: { metadata: { error: true, model: model.id } satisfies TurnMetadata } };
  };
  const attached = (shape.attachments ?? []).map((uri): vscode.ChatPromptReference => ({ id: uri.toString(), value: uri }));
  const references = await resolveReferences([...request.references, ...attached], stream, deps.logger);
  for (const problem of references.problems) stream.markdown(`> ${vscode.l10n.t('Skipped an attachment: {0}', problem)}\n\n`);
  if (references.oversized.length > 0) {
    stream.markdown(`**${vscode.l10n.t('Image too large, nothing was sent.')}** ${references.oversized.join(' ')}`);
    return { refused: { metadata: { error: true, model: model.id } satisfies TurnMetadata } };
  }
  if (references.images.length > 0 && model.kind !== 'vision') {
    return refused(vscode.l10n.t('**{0} cannot read images.** Pick a vision model (for example one with `-vl` in its name) in the model picker or with `/model`, or remove the image.', model.id));
  }
  const system = shape.instructions ? `${SYSTEM_PROMPT}\n\n${shape.instructions}` : SYSTEM_PROMPT;
  const messages: ChatMessage[] = [{ role: 'system', content: system }, ...historyMessages(context, PARTICIPANT_ID), userMessage(shape.prompt ?? request.prompt, references.context, references.images)];
  const contextLength = model.maxModelLen ?? 32_768;
  // Earlier turns are never dropped here: the agent turn compacts them (a summary) if they do not fit.
  // Only the system prompt and the user's message (with attachments) must fit with room to answer.
  const pinnedTokens = estimateMessageTokens(messages[0] as ChatMessage) + estimateMessageTokens(messages[messages.length - 1] as ChatMessage);
  const room = contextLength - pinnedTokens;
  if (room < Math.min(256, modelOutputBudget(model))) {
    return refused(vscode.l10n.t("**Too long for {0}.** The request and attachments need about {1} tokens; the model's context is {2}. Attach less, or pick a model with a longer context.", model.id, pinnedTokens.toLocaleString('en'), contextLength.toLocaleString('en')));
  }
  return { messages, maxTokens: Math.min(modelOutputBudget(model), room) };
}

interface FailureContext {
  readonly request: vscode.ChatRequest;
  readonly stream: vscode.ChatResponseStream;
  /** Answer text that had arrived before the failure ('' if none). */
  readonly partial: string;
  readonly model: string | undefined;
}

/**
 * Ends a turn that failed. What arrived stays in the chat and in the turn's history, marked
 * incomplete; the error is shown once, with its actions (Retry included where it helps).
 */
function failed(deps: Deps, error: unknown, ctx: FailureContext): vscode.ChatResult {
  const presented = presentError(error);
  const model = ctx.model ? { model: ctx.model } : {};
  const kept = ctx.partial ? { messages: [{ role: 'assistant', content: ctx.partial }] satisfies ChatMessage[] } : undefined;
  if (presented.cancelled) {
    // Keep what arrived as this turn's answer, so history stays truthful.
    return kept ? { metadata: { ...model, ...kept, incomplete: 'cancelled' } satisfies TurnMetadata } : {};
  }
  deps.logger.error('Chat request failed', error);
  deps.connectionStatus.set({ kind: 'error', message: presented.message });
  const incomplete = kept ? incompleteness(error) : undefined;
  if (incomplete) ctx.stream.markdown(`${closeOpenFence(ctx.partial)}\n\n_(${incompleteNote(incomplete)})_`);
  chatErrorButtons(ctx.stream, presented.actions, {
    commands: { retry: { command: Commands.retryChat, arguments: [ctx.request.prompt, presented.retryAfterSeconds ?? 0] } },
    retryAfterSeconds: presented.retryAfterSeconds,
  });
  return {
    errorDetails: { message: presented.message },
    metadata: { error: true, ...model, ...(kept && incomplete ? { ...kept, incomplete } : {}) } satisfies TurnMetadata,
  };
}

function incompleteness(error: unknown): Incompleteness {
  return isStratusError(error) && error.kind === 'interrupted' ? error.reason : 'error';
}

function incompleteNote(incomplete: Incompleteness): string {
  switch (incomplete) {
    case 'reset':
      return vscode.l10n.t('Incomplete answer: the connection was reset before it finished. The text above is what arrived.');
    case 'stalled':
      return vscode.l10n.t('Incomplete answer: it stopped arriving before it finished. The text above is what arrived.');
    case 'ended':
      return vscode.l10n.t('Incomplete answer: the service ended it before it finished. The text above is what arrived.');
    default:
      return vscode.l10n.t('Incomplete answer: it stopped because of the error below. The text above is what arrived.');
  }
}

/** A partial answer cut inside a fenced code block: close the fence so the note renders as text. */
function closeOpenFence(text: string): string {
  const fences = text.match(/^[ \t]*(?:```|~~~)/gm)?.length ?? 0;
  return fences % 2 === 1 ? `${text.endsWith('\n') ? '' : '\n'}\`\`\`` : '';
}
