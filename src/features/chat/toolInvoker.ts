import * as vscode from 'vscode';
import type { ToolInvocation, ToolInvoker, ToolOutcome } from '../../core/agent';
import { CancelledError } from '../../core/errors';
import { TextCallApprovals } from '../../services/textCallApprovals';

export type InvokeTool = (name: string, options: vscode.LanguageModelToolInvocationOptions<object>, token?: vscode.CancellationToken) => Thenable<vscode.LanguageModelToolResult>;

export const DECLINED_RESULT = 'The user declined to run this tool call, so nothing was done. Do not repeat it unless the user asks; continue without it or ask the user what they want instead.';

function partText(part: unknown): string {
  if (part instanceof vscode.LanguageModelTextPart) return part.value;
  if (typeof part === 'object' && part !== null && typeof (part as { value?: unknown }).value === 'string') return (part as { value: string }).value;
  return '';
}

/** VS Code signals a refused confirmation with a CancellationError (name `Canceled`) while the request goes on. */
function isCancellationError(error: unknown): boolean {
  return error instanceof vscode.CancellationError || (error instanceof Error && error.name === 'Canceled');
}

/**
 * Runs the loop's tool calls through `vscode.lm.invokeTool` with the chat request's
 * `toolInvocationToken`, so the Chat view renders each invocation, its confirmation and progress.
 */
export class VscodeToolInvoker implements ToolInvoker {
  constructor(
    private readonly toolInvocationToken: vscode.ChatParticipantToolToken | undefined,
    private readonly invokeTool: InvokeTool = (name, options, token) => vscode.lm.invokeTool(name, options, token),
    /** Calls read from the model's text: never auto-approved (a Stratus tool's confirmation says so; any other tool is asked about first). */
    private readonly textCalls: TextCallApprovals = new TextCallApprovals(),
  ) {}

  async invoke(invocation: ToolInvocation, signal: AbortSignal): Promise<ToolOutcome> {
    if (invocation.fromText && !this.textCalls.guards(invocation.name) && !(await this.textCalls.confirmElsewhere(invocation.name, invocation.input))) {
      if (signal.aborted) throw new CancelledError();
      return { content: DECLINED_RESULT, declined: true };
    }
    const source = new vscode.CancellationTokenSource();
    const onAbort = (): void => source.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) source.cancel();
    const done = invocation.fromText ? this.textCalls.expect(invocation.name, invocation.input) : undefined;
    try {
      const result = await this.invokeTool(invocation.name, { input: invocation.input, toolInvocationToken: this.toolInvocationToken }, source.token);
      const text = result.content.map(partText).join('');
      return { content: text.trim() ? text : `${invocation.name} ran and returned no output.` };
    } catch (error) {
      if (signal.aborted) throw new CancelledError();
      if (isCancellationError(error)) return { content: DECLINED_RESULT, declined: true };
      const message = error instanceof Error ? error.message : String(error);
      return { content: `Error: ${message}`, isError: true };
    } finally {
      done?.();
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }
}
