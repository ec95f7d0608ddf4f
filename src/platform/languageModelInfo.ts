import * as vscode from 'vscode';
import { supportsToolCalling, type ToolCallingOverrides } from '../core/inference/models/capabilities';
import type { ModelInfo } from '../core/inference/models/types';

export const VENDOR = 'stratus';
/** Shown when no real model can be listed, so `@stratus` can still explain what to set up. */
export const PLACEHOLDER_ID = 'stratus-not-connected';

export interface StratusModel extends vscode.LanguageModelChatInformation {
  /** Field of newer VS Code versions: list the model in the picker. */
  readonly isUserSelectable: boolean;
  /** Why the placeholder stands in for real models. */
  readonly unavailableReason?: string;
}

const DEFAULT_CONTEXT = 32_768;

/** Only models that chat are offered to VS Code; embedding, rerank, speech and OCR models are not. */
export function isChatCapable(model: ModelInfo): boolean {
  return model.kind === 'chat' || model.kind === 'vision';
}

/** Output budget: a quarter of the context, at least 256 and at most 16k tokens. */
export function outputBudget(maxModelLen: number): number {
  return Math.min(16_384, Math.max(256, Math.floor(maxModelLen / 4)));
}

/** The model's output budget: the user's `maxOutputTokens` override (below the context), else outputBudget. */
export function modelOutputBudget(model: Pick<ModelInfo, 'maxModelLen' | 'maxOutputTokens'>): number {
  const context = model.maxModelLen ?? DEFAULT_CONTEXT;
  return model.maxOutputTokens !== undefined ? Math.min(model.maxOutputTokens, context - 1) : outputBudget(context);
}

/**
 * The model as VS Code's model picker and agent mode see it. Tool calling is declared only where
 * the model takes tools (its family, or `stratus.models.toolCalling`): agent mode offers tools
 * to a model that declares it, and a model that garbles them fails the agent's turns.
 */
export function toLanguageModelInfo(model: ModelInfo, toolCalling: ToolCallingOverrides = {}): StratusModel {
  const context = model.maxModelLen ?? DEFAULT_CONTEXT;
  const maxOutputTokens = modelOutputBudget(model);
  return {
    id: model.id,
    name: model.id,
    family: model.root ?? model.id.split(':')[0] ?? model.id,
    version: model.id.split(':')[1] ?? '1',
    detail: vscode.l10n.t('{0}k context', Math.round(context / 1024)),
    tooltip: model.ownedBy
      ? vscode.l10n.t('{0} on the sovereign cloud ({1}, context {2} tokens, {3})', model.id, model.kind, context.toLocaleString('en'), model.ownedBy)
      : vscode.l10n.t('{0} on the sovereign cloud ({1}, context {2} tokens)', model.id, model.kind, context.toLocaleString('en')),
    maxInputTokens: context - maxOutputTokens,
    maxOutputTokens,
    capabilities: { toolCalling: supportsToolCalling(model, toolCalling), imageInput: model.kind === 'vision' },
    isUserSelectable: true,
  };
}

export function placeholderModel(reason: string): StratusModel {
  return {
    id: PLACEHOLDER_ID,
    name: vscode.l10n.t('Stratus (not connected)'),
    family: 'stratus',
    version: '0',
    detail: reason,
    tooltip: reason,
    maxInputTokens: 8192,
    maxOutputTokens: 1024,
    // Agent mode offers only tool-calling models; the placeholder must be offered there too.
    capabilities: { toolCalling: true },
    isUserSelectable: true,
    unavailableReason: reason,
  };
}
