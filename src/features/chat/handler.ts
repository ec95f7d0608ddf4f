import * as vscode from 'vscode';
import type { ChatMessage, ContentPart } from '../../core/inference/chat/types';
import { fitConversation } from '../../core/inference/models/fit';
import type { ModelInfo } from '../../core/inference/models/types';
import { presentError } from '../../core/presentError';
import { toAbortSignal } from '../../platform/cancellation';
import type { Deps } from '../deps';
import { PLACEHOLDER_ID, VENDOR, outputBudget } from '../models/modelInfo';
import { defaultChatModel, pickChatModel } from '../models/selection';
import { errorButtons, notConfigured } from './responses';
import { historyMessages, type TurnMetadata } from './history';
import { resolveReferences } from './references';
import { runAgentTurn } from '../tools/agentTurn';

export const PARTICIPANT_ID = 'stratus.chat';

const SYSTEM_PROMPT = [
  'You are Stratus, a coding and cloud-operations assistant inside VS Code, answering with models hosted on a sovereign cloud.',
  'Answer in Markdown. Put code in fenced blocks with a language tag. Be concise and precise.',
].join(' ');

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

export function createHandler(deps: Deps): vscode.ChatRequestHandler {
  return async (request, context, stream, token): Promise<vscode.ChatResult> => {
    // Commands other features provide check their own set-up (/usage needs no API key).
    const provided = deps.chatCommands.get(request.command);
    if (provided) return provided.handle(request, context, stream, token);

    const configured = await deps.inference.isConfigured();
    if (!configured.apiKey || !configured.baseUrl) return notConfigured(stream, configured.apiKey ? 'baseUrl' : 'apiKey');

    if (request.command === 'model') {
      const chosen = await pickChatModel(deps.inference);
      stream.markdown(chosen ? `\`@stratus\` now uses **${chosen}**.` : 'Model unchanged.');
      return {};
    }

    const abort = toAbortSignal(token);
    const partial: string[] = [];
    try {
      const model = await chooseModel(request, deps, abort.signal);
      if (!model) {
        stream.markdown('The service lists no chat model.');
        return { metadata: { error: true } satisfies TurnMetadata };
      }
      const references = await resolveReferences(request.references, stream);
      for (const problem of references.problems) stream.markdown(`> Skipped an attachment: ${problem}\n\n`);
      if (references.images.length > 0 && model.kind !== 'vision') {
        stream.markdown(`**${model.id} cannot read images.** Pick a vision model (for example one with \`-vl\` in its name) in the model picker or with \`/model\`, or remove the image.`);
        errorButtons(stream, ['pickModel']);
        return { metadata: { error: true, model: model.id } satisfies TurnMetadata };
      }

      const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, ...historyMessages(context, PARTICIPANT_ID), userMessage(request.prompt, references.context, references.images)];
      const contextLength = model.maxModelLen ?? 32_768;
      const fitted = fitConversation(messages, contextLength, { maxTokens: outputBudget(contextLength) });
      if (!fitted.fits) {
        stream.markdown(`**Too long for ${model.id}.** The request and attachments need about ${fitted.promptTokens.toLocaleString('en')} tokens; the model's context is ${contextLength.toLocaleString('en')}. Attach less, or pick a model with a longer context.`);
        errorButtons(stream, ['pickModel']);
        return { metadata: { error: true, model: model.id } satisfies TurnMetadata };
      }
      if (fitted.dropped > 0) deps.logger.info(`Dropped ${fitted.dropped} old message(s) to fit ${model.id}'s context.`);

      return await runAgentTurn(deps, { request, stream, signal: abort.signal, model, messages: fitted.messages, maxTokens: fitted.maxTokens, partial });
    } catch (error) {
      const presented = presentError(error);
      if (presented.cancelled) {
        // Keep what arrived as this turn's answer, so history stays truthful.
        return partial.length > 0 ? { metadata: { messages: [{ role: 'assistant', content: partial.join('') }] } satisfies TurnMetadata } : {};
      }
      deps.logger.error(`Chat request failed: ${presented.message}`);
      deps.connectionStatus.set({ kind: 'error', message: presented.message });
      errorButtons(stream, presented.actions, { prompt: request.prompt, retryAfterSeconds: presented.retryAfterSeconds });
      return { errorDetails: { message: presented.message }, metadata: { error: true } satisfies TurnMetadata };
    } finally {
      abort.dispose();
    }
  };
}
