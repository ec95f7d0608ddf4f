import * as vscode from 'vscode';
import { applyTodo, TodoList } from '../../core/agent/todoList';
import { textResult } from '../../platform/toolWorkspace';

/**
 * `stratus_todo` as VS Code's other agents call it: one list for the window. `@stratus` turns do not
 * come here; each keeps its own list in its conversation (src/features/chat/turnControl.ts), shown in the chat.
 */
export class TodoTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  private readonly list = new TodoList();

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Updating the to-do list ({0})', String(options.input.action)) };
  }

  invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>): vscode.LanguageModelToolResult {
    const outcome = applyTodo(this.list, options.input);
    if (outcome.isError) throw new Error(outcome.content.replace(/^Error: /, ''));
    return textResult(outcome.content);
  }
}
