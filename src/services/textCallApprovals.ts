import * as vscode from 'vscode';
import { TextCallRegistry } from '../core/agent/textCallRegistry';
import { codeFence } from '../core/markdown';

/**
 * Tool calls the agent read from a model's text (not sent as `tool_calls`): never auto-approved.
 * The invoker says which invocation is one while it runs it; a Stratus tool's confirmation (the
 * `guard` wrapper, put on every tool at registration) then always asks, and says the call was read
 * from the model's text, whatever the tool or an auto-approve rule would have done. A tool this
 * extension does not register is asked about in a dialog before it is invoked.
 */
export class TextCallApprovals {
  private readonly registry = new TextCallRegistry();
  private readonly guarded = new Set<string>();

  /** The notice every confirmation of such a call starts with. */
  static notice(): string {
    return `⚠️ **${vscode.l10n.t("This call was read from the model's text, not sent as a tool call: it is never run without asking.")}**`;
  }

  /** Whether `name`'s confirmation is built here (its tool went through `guard`). */
  guards(name: string): boolean {
    return this.guarded.has(name);
  }

  /** The invoker runs `name(input)`, read from text, until the returned function is called. */
  expect(name: string, input: unknown): () => void {
    return this.registry.expect(name, input);
  }

  /** Whether the invocation being prepared is a call read from text. */
  isFromText(name: string, input: unknown): boolean {
    return this.registry.isFromText(name, input);
  }

  /** `tool` whose confirmation always asks for a call read from text, with the notice. */
  guard<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.LanguageModelTool<T> {
    this.guarded.add(name);
    return {
      prepareInvocation: async (options, token) => {
        const prepared = (await tool.prepareInvocation?.(options, token)) ?? {};
        if (!this.isFromText(name, options.input)) return prepared;
        const own = prepared.confirmationMessages;
        const body = own === undefined ? `${vscode.l10n.t('Run the tool {0} with this input:', name)}\n\n${codeFence(JSON.stringify(options.input, undefined, 1) ?? '', 'json')}` : typeof own.message === 'string' ? own.message : own.message.value;
        const message = new vscode.MarkdownString(`${TextCallApprovals.notice()}\n\n${body}`);
        if (own !== undefined && typeof own.message !== 'string') message.supportThemeIcons = own.message.supportThemeIcons;
        return { ...prepared, confirmationMessages: { title: vscode.l10n.t("Run a tool call read from the model's text?"), message } };
      },
      invoke: (options, token) => tool.invoke(options, token),
    };
  }

  /** A call read from text to a tool registered elsewhere: asked about in a modal dialog. */
  async confirmElsewhere(name: string, input: unknown): Promise<boolean> {
    const run = vscode.l10n.t('Run');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t("Run a tool call read from the model's text?"),
      { modal: true, detail: vscode.l10n.t("The model wrote this call in its answer's text instead of sending it as a tool call, so it is never run without asking.\n\nTool: {0}\nInput: {1}", name, JSON.stringify(input) ?? '') },
      run,
    );
    return answer === run;
  }
}


