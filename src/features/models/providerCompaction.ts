import * as vscode from 'vscode';
import { compactToFit, MemorySummaryStore } from '../../core/agent/compaction';
import { ValidationError } from '../../core/errors';
import type { ChatMessage, ToolDefinition } from '../../core/inference/chat/types';
import { estimateToolsTokens } from '../../core/inference/models/tokens';
import type { Logger } from '../../core/log';
import type { InferenceConnection } from '../../services/inferenceConnection';
import type { StratusModel } from '../../platform/languageModelInfo';

/**
 * Compaction for the language-model provider (VS Code's own agent mode, or any extension, using a
 * Stratus model through `vscode.lm`), instead of silently dropping the oldest messages. The same
 * planner as @stratus: old tool results elided first (no request), then, only if that is not
 * enough, one summary request whose summary is reused by the later requests.
 *
 * The stable provider API gives no conversation id and no place for a note in the chat: a summary
 * is matched by the content of the messages it replaces (records of other conversations simply do
 * not match), and what was shortened or summarised is written to the Stratus output channel.
 * Ending in a request the model cannot take is a clear error, never a context-length 400.
 */

/** One store for every conversation the provider serves; a record applies only where its messages are. */
const PROVIDER_CONVERSATION = 'language-model-provider';
const MIN_ANSWER_TOKENS = 256;

export class ProviderCompaction {
  private readonly store = new MemorySummaryStore(16, 1);

  constructor(
    private readonly connection: InferenceConnection,
    private readonly logger: Logger,
  ) {}

  async fit(messages: readonly ChatMessage[], model: StratusModel, tools: readonly ToolDefinition[] | undefined, signal: AbortSignal): Promise<{ messages: ChatMessage[]; maxTokens: number }> {
    const maxModelLen = model.maxInputTokens + model.maxOutputTokens;
    const budget = { maxModelLen, toolsTokens: estimateToolsTokens(tools), reserveTokens: model.maxOutputTokens };
    const outcome = await compactToFit(messages, budget, {
      store: this.store,
      conversationId: PROVIDER_CONVERSATION,
      summarise: async (request) => {
        this.logger.info(`Request to ${model.id} through vscode.lm does not fit its context (${maxModelLen.toLocaleString('en')} tokens): summarising earlier messages in one request.`);
        return this.connection.client().chat({ model: model.id, messages: request.messages, max_tokens: request.maxTokens }, { signal });
      },
    }, { minReserveTokens: Math.min(MIN_ANSWER_TOKENS, model.maxOutputTokens) });
    switch (outcome.kind) {
      case 'send': {
        const { plan } = outcome;
        const changes = [
          plan.summarisedMessages > 0 ? `${plan.summarisedMessages} earlier message(s) replaced by a summary${outcome.summariesMade > 0 ? ' (made now)' : ' (reused)'}` : '',
          plan.elidedResults > 0 ? `${plan.elidedResults} earlier tool result(s) shortened` : '',
          plan.cutResults > 0 ? `${plan.cutResults} tool result(s) of the latest round cut in their middle` : '',
          outcome.summaryFailed ? `the summary asked for was ${outcome.summaryFailed === 'cut' ? 'cut off' : 'empty'} and not kept` : '',
          plan.leftOutMessages ? `${plan.leftOutMessages} earlier message(s) left out without a summary` : '',
        ].filter((c) => c !== '');
        if (changes.length > 0) this.logger.info(`Request to ${model.id} through vscode.lm compacted to fit its context: ${changes.join('; ')}.`);
        return { messages: plan.messages, maxTokens: outcome.maxTokens };
      }
      case 'too-large':
        throw new ValidationError(vscode.l10n.t('the conversation does not fit the context of {0} ({1} tokens) even after summarising earlier messages: the request needs about {2}', model.id, maxModelLen.toLocaleString('en'), outcome.promptTokens.toLocaleString('en')), 'messages');
      case 'no-progress':
        throw new ValidationError(vscode.l10n.t('The conversation could not be summarised to fit the context of {0}.', model.id), 'messages');
    }
  }
}
