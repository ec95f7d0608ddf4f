import * as vscode from 'vscode';
import type { TrustAction } from '../../core/workspace/trust';
import { codeFence } from '../../core/markdown';
import type { WorkspaceTrustGate } from '../../services/workspaceTrust';

type Gate = Pick<WorkspaceTrustGate, 'confirmationNote' | 'noteConfirmation'>;

/**
 * A side-effect tool behind the trust gate: in Restricted Mode its confirmation starts with the
 * gate's line saying why it asks, and a tool that would have run unconfirmed (an auto-approved
 * command) gets a confirmation showing its input. One wrapper at registration, so a new tool
 * cannot forget it; the tool's own checks (runInTerminal's auto-approval) ask the gate too.
 */
export function trustGatedTool<T>(name: string, tool: vscode.LanguageModelTool<T>, gate: Gate, action: TrustAction): vscode.LanguageModelTool<T> {
  return {
    async prepareInvocation(options, token) {
      const prepared = (await tool.prepareInvocation?.(options, token)) ?? {};
      const note = gate.confirmationNote(action);
      if (note === '') return prepared;
      gate.noteConfirmation(name, action);
      const own = prepared.confirmationMessages;
      const body = own === undefined ? `${vscode.l10n.t('Run the tool {0} with this input:', name)}\n\n${codeFence(JSON.stringify(options.input, undefined, 1) ?? '', 'json')}` : typeof own.message === 'string' ? own.message : own.message.value;
      const message = new vscode.MarkdownString(`${note}\n\n${body}`);
      if (own !== undefined && typeof own.message !== 'string') message.supportThemeIcons = own.message.supportThemeIcons;
      return { ...prepared, confirmationMessages: { title: own?.title ?? vscode.l10n.t('Run a Stratus tool?'), message } };
    },
    invoke: (options, token) => tool.invoke(options, token),
  };
}
