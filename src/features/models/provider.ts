import * as vscode from 'vscode';
import { isStratusError, MalformedResponseError, ValidationError } from '../../core/errors';
import { ImageBudget } from '../../core/inference/chat/images';
import type { ChatMessage } from '../../core/inference/chat/types';
import type { ToolCallingOverrides } from '../../core/inference/models/capabilities';
import { presentError } from '../../core/presentError';
import { estimateTextTokens } from '../../core/inference/models/tokens';
import type { Logger } from '../../core/log';
import { toAbortSignal } from '../../platform/cancellation';
import type { InferenceConnection } from '../../services/inferenceConnection';
import { Commands } from '../commands';
import type { ConnectionStatus } from '../../services/connectionStatus';
import { isChatCapable, placeholderModel, toLanguageModelInfo, type StratusModel } from '../../platform/languageModelInfo';
import { ProviderCompaction } from './providerCompaction';
import { readToolCallingOverrides } from './settings';
import { toApiMessages, toApiToolChoice, toApiTools } from './toApiMessages';

/**
 * The provider's chat models in VS Code's model picker, usable by any participant and by agent
 * mode. Answers stream as text and tool-call parts.
 */
export class StratusModelProvider implements vscode.LanguageModelChatProvider<StratusModel> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly compaction: ProviderCompaction;

  constructor(
    private readonly connection: InferenceConnection,
    private readonly status: ConnectionStatus,
    private readonly logger: Logger,
    /** `stratus.models.toolCalling`, read on every listing. */
    private readonly toolCalling: () => ToolCallingOverrides = readToolCallingOverrides,
  ) {
    this.compaction = new ProviderCompaction(connection, logger);
  }

  /** The model list must be asked for again (settings or key changed). */
  refresh(): void {
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<StratusModel[]> {
    let configured = await this.connection.isConfigured();
    if (!configured.apiKey && !options.silent) {
      // The user asked for Stratus models explicitly (Manage Models): offer to set the key now.
      await vscode.commands.executeCommand(Commands.setApiKey);
      configured = await this.connection.isConfigured();
    }
    if (!configured.apiKey || !configured.baseUrl) {
      const missing = configured.baseUrl ? 'apiKey' : 'baseUrl';
      this.status.set({ kind: 'notConfigured', missing });
      return [placeholderModel(missing === 'apiKey' ? vscode.l10n.t('Set your inference API key (Stratus: Set Inference API Key).') : vscode.l10n.t('Set stratus.inference.baseUrl.'))];
    }
    const abort = toAbortSignal(token);
    try {
      const models = (await this.connection.client().models.list({ signal: abort.signal })).filter(isChatCapable);
      this.status.set({ kind: 'connected' });
      if (models.length === 0) return [placeholderModel(vscode.l10n.t('The service lists no chat models.'))];
      const overrides = this.toolCalling();
      return models.map((m) => toLanguageModelInfo(m, overrides));
    } catch (error) {
      const presented = presentError(error);
      if (!presented.cancelled) {
        this.logger.warn(`Listing models failed: ${presented.message}`);
        this.status.set({ kind: 'error', message: presented.message });
      }
      return [placeholderModel(presented.message)];
    } finally {
      abort.dispose();
    }
  }

  async provideLanguageModelChatResponse(
    model: StratusModel,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    if (model.unavailableReason !== undefined) throw new vscode.LanguageModelError(vscode.l10n.t('Stratus is not connected: {0}', model.unavailableReason));
    const abort = toAbortSignal(token);
    try {
      const tools = toApiTools(options.tools);
      const wire = toApiMessages(messages);
      checkImageSizes(wire);
      const fitted = await this.compaction.fit(wire, model, tools, abort.signal);
      const toolChoice = toApiToolChoice(options.toolMode, tools);
      await this.connection.client().chatStream(
        { model: model.id, messages: fitted.messages, max_tokens: fitted.maxTokens, ...(tools ? { tools } : {}), ...(toolChoice ? { tool_choice: toolChoice } : {}) },
        { signal: abort.signal },
      ).consume((event) => {
        if (event.type === 'text') progress.report(new vscode.LanguageModelTextPart(event.text));
        else if (event.type === 'tool_call') progress.report(new vscode.LanguageModelToolCallPart(event.call.id, event.call.function.name, parseArguments(event.call.function.arguments, event.call.function.name)));
      });
      this.status.set({ kind: 'connected' });
    } catch (error) {
      const presented = presentError(error);
      if (presented.cancelled) return;
      this.logger.error(`Model ${model.id} request failed`, error);
      if (isStratusError(error) && error.kind !== 'validation') this.status.set({ kind: 'error', message: presented.message });
      throw languageModelError(error, presented.message);
    } finally {
      abort.dispose();
    }
  }

  async provideTokenCount(_model: StratusModel, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    if (typeof text === 'string') return estimateTextTokens(text);
    return text.content.reduce<number>((sum, part) => sum + (part instanceof vscode.LanguageModelTextPart ? estimateTextTokens(part.value) : 0), 0);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The typed error as VS Code's LanguageModelError, so callers can tell a permission or model problem by its code. */
function languageModelError(error: unknown, message: string): vscode.LanguageModelError {
  if (!isStratusError(error)) return new vscode.LanguageModelError(message);
  switch (error.kind) {
    case 'auth':
    case 'forbidden':
      return vscode.LanguageModelError.NoPermissions(message);
    case 'not_found':
      return vscode.LanguageModelError.NotFound(message);
    default:
      return new vscode.LanguageModelError(message);
  }
}

/** Refuses images over the size caps before anything is sent. */
function checkImageSizes(messages: readonly ChatMessage[]): void {
  const budget = new ImageBudget();
  let count = 0;
  messages.forEach((message, i) => {
    if (message.role !== 'user' || typeof message.content === 'string') return;
    message.content.forEach((part, j) => {
      if (part.type !== 'image_url') return;
      const url = part.image_url.url;
      const base64 = url.length - url.indexOf(',') - 1;
      const refused = budget.admit(`Image ${++count} of the request`, Math.floor((base64 * 3) / 4));
      if (refused) throw new ValidationError(refused, `messages[${i}].content[${j}].image_url.url`);
    });
  });
}

/** Tool arguments are JSON text on the wire and an object for VS Code. */
function parseArguments(text: string, name: string): object {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null) return value;
  } catch {
    // fall through to the error below
  }
  throw new MalformedResponseError(vscode.l10n.t('the model called tool {0} with arguments that are not a JSON object', name));
}
