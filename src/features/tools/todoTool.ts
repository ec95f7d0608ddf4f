import * as vscode from 'vscode';
import { parseTodoAction, TodoError, TodoList } from '../../core/agent/todoList';
import type { ToolOutcome } from '../../core/agent';
import { textResult } from './workspace';

/** Applies one `stratus_todo` call to a list: the list as Markdown, or the error the model can act on. */
export function applyTodo(list: TodoList, input: Readonly<Record<string, unknown>>): ToolOutcome {
  try {
    list.apply(parseTodoAction(input));
  } catch (error) {
    if (error instanceof TodoError) return { content: `Error: ${error.message}`, isError: true };
    throw error;
  }
  return { content: `Updated; ${list.done()} of ${list.size} done:\n${list.markdown()}` };
}

/**
 * `stratus_todo` as VS Code's other agents call it: one list for the window. `@stratus` turns do not
 * come here; each keeps its own list in its conversation (turnControl.ts), shown in the chat.
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
