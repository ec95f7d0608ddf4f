import * as vscode from 'vscode';
import { checkCommand, DEFAULT_COMMAND_ALLOWLIST } from '../../core/agent/commands';
import { findTask, runTask } from './taskRunner';
import { displayPath, resolveWorkspacePath, textResult, ToolFailure } from './workspace';

/** Workspace tools with side effects: each asks for confirmation naming exactly what will happen. */

interface RunCommandInput { command: string; args?: unknown[] }
interface RunTaskInput { task: string }
interface ProposeEditInput { path: string; oldText: string; newText: string }

const MAX_RESULT_CHARS = 20_000;

export function commandAllowlist(): string[] {
  // Application scope: only the user's own settings count, never a workspace's.
  const inspected = vscode.workspace.getConfiguration('stratus').inspect<string[]>('tools.commandAllowlist');
  const value = inspected?.globalValue ?? inspected?.defaultValue ?? [...DEFAULT_COMMAND_ALLOWLIST];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [...DEFAULT_COMMAND_ALLOWLIST];
}

function fence(text: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}\n${text}\n${ticks}`;
}

function short(text: string, max = 400): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** `{"$uri": "path"}` and `{"$position": {line, character}}` become VS Code objects; the rest stays JSON. */
async function convertArg(value: unknown): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map(convertArg));
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.$uri === 'string') return (await resolveWorkspacePath(record.$uri)).uri;
    if (typeof record.$position === 'object' && record.$position !== null) {
      const p = record.$position as Record<string, unknown>;
      if (typeof p.line !== 'number' || typeof p.character !== 'number') throw new ToolFailure('$position needs numeric "line" and "character" (0-based).');
      return new vscode.Position(Math.max(0, p.line), Math.max(0, p.character));
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) out[k] = await convertArg(v);
    return out;
  }
  return value;
}

function describeValue(value: unknown): string {
  const seen = new WeakSet<object>();
  const json = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (v instanceof vscode.Uri) return v.scheme === 'file' ? displayPath(v) : v.toString(true);
      if (v instanceof vscode.Position) return `${v.line + 1}:${v.character + 1}`;
      if (v instanceof vscode.Range) return `${v.start.line + 1}:${v.start.character + 1}-${v.end.line + 1}:${v.end.character + 1}`;
      if (v instanceof vscode.MarkdownString) return v.value;
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[circular]';
        seen.add(v);
      }
      return v;
    },
    1,
  );
  if (json === undefined) return 'The command ran and returned nothing.';
  return json.length > MAX_RESULT_CHARS ? `${json.slice(0, MAX_RESULT_CHARS)}\n[Result cut at ${MAX_RESULT_CHARS.toLocaleString('en')} characters.]` : json;
}

export class RunCommandTool implements vscode.LanguageModelTool<RunCommandInput> {
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunCommandInput>): vscode.PreparedToolInvocation {
    const { command, args } = options.input;
    const argsText = args && args.length > 0 ? JSON.stringify(args) : '';
    const allowed = checkCommand(commandAllowlist(), String(command), args ?? []);
    // Always confirmed, even a command that will be refused: invoke checks again, and nothing may
    // run unconfirmed if the allowlist changes in between.
    const refusal = allowed.ok ? '' : `\n\n(It is not allowed and will be refused: ${allowed.reason})`;
    return {
      invocationMessage: vscode.l10n.t('Running command {0}', command),
      confirmationMessages: { title: vscode.l10n.t('Run a VS Code command?'), message: new vscode.MarkdownString((argsText ? `${vscode.l10n.t('Run the VS Code command `{0}` with these arguments:', command)}\n\n${fence(short(argsText, 2000))}` : vscode.l10n.t('Run the VS Code command `{0}` with no arguments.', command)) + refusal) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RunCommandInput>): Promise<vscode.LanguageModelToolResult> {
    const command = String(options.input.command ?? '');
    const args = Array.isArray(options.input.args) ? options.input.args : [];
    const check = checkCommand(commandAllowlist(), command, args);
    if (!check.ok) throw new ToolFailure(check.reason);
    const converted = (await convertArg(args)) as unknown[];
    const result = await vscode.commands.executeCommand<unknown>(command, ...converted);
    return textResult(`Command ${command} ran.\nResult: ${describeValue(result)}`);
  }
}

export class RunTaskTool implements vscode.LanguageModelTool<RunTaskInput> {
  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunTaskInput>): Promise<vscode.PreparedToolInvocation> {
    const { task } = await findTask(String(options.input.task ?? ''));
    // Confirmed even when not found now: tasks.json may change before invoke looks again.
    if (!task) return { invocationMessage: vscode.l10n.t('Running task {0}', options.input.task), confirmationMessages: { title: vscode.l10n.t('Run a workspace task?'), message: new vscode.MarkdownString(vscode.l10n.t('Run the task **{0}** (not found now; it will be refused unless it appears).', options.input.task)) } };
    const exec = task.execution;
    const line = exec instanceof vscode.ShellExecution ? exec.commandLine ?? [exec.command, ...(exec.args ?? [])].map((a) => (typeof a === 'string' ? a : a?.value ?? '')).join(' ') : exec instanceof vscode.ProcessExecution ? [exec.process, ...exec.args].join(' ') : '';
    return {
      invocationMessage: vscode.l10n.t('Running task {0}', task.name),
      confirmationMessages: { title: vscode.l10n.t('Run a workspace task?'), message: new vscode.MarkdownString(`${vscode.l10n.t('Run the task **{0}**', task.name)}${task.source ? ` (${task.source})` : ''}${line ? `:\n\n${fence(short(line, 1000))}` : '.'}`) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RunTaskInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const name = String(options.input.task ?? '');
    const { task, available } = await findTask(name);
    if (!task) throw new ToolFailure(`There is no task named "${name}". Available tasks: ${available.join(', ') || '(none: the workspace defines no task)'}.`);
    const outcome = await runTask(task, token);
    if (outcome.cancelled) return textResult(`Task ${outcome.name} was stopped before it ended (cancelled).${outcome.output ? `\nOutput so far (tail):\n${outcome.output}` : ''}`);
    const status = outcome.exitCode === undefined ? 'ended (exit code unknown)' : outcome.exitCode === 0 ? 'succeeded (exit code 0)' : `failed (exit code ${outcome.exitCode})`;
    const output = outcome.output === undefined ? 'Output: not captured for this kind of task; see the terminal.' : outcome.output.trim() ? `Output (tail):\n${outcome.output.trimEnd()}` : 'Output: (none)';
    return textResult(`Task ${outcome.name} ${status}.\n${output}`);
  }
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

function editPreview(): boolean {
  return vscode.workspace.getConfiguration('stratus').get<boolean>('tools.editPreview', true);
}

export class ProposeEditTool implements vscode.LanguageModelTool<ProposeEditInput> {
  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ProposeEditInput>): Promise<vscode.PreparedToolInvocation> {
    const { path, oldText, newText } = options.input;
    const creating = !oldText;
    const body = creating
      ? `${vscode.l10n.t('Create **{0}** with:', path)}\n\n${fence(short(newText, 3000))}`
      : `${vscode.l10n.t('In **{0}**, replace:', path)}\n\n${fence(short(oldText, 1500))}\n\n${vscode.l10n.t('with:')}\n\n${fence(short(newText, 1500))}`;
    return {
      invocationMessage: creating ? vscode.l10n.t('Creating {0}', path) : vscode.l10n.t('Editing {0}', path),
      confirmationMessages: { title: creating ? vscode.l10n.t('Create a file?') : vscode.l10n.t('Apply an edit?'), message: new vscode.MarkdownString(body) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ProposeEditInput>): Promise<vscode.LanguageModelToolResult> {
    const { oldText, newText } = options.input;
    if (typeof oldText !== 'string' || typeof newText !== 'string') throw new ToolFailure('oldText and newText must be strings.');
    const file = await resolveWorkspacePath(options.input.path);
    const edit = new vscode.WorkspaceEdit();
    const metadata: vscode.WorkspaceEditEntryMetadata = { label: `@stratus: ${file.relative}`, needsConfirmation: editPreview() };
    if (!oldText) {
      if (file.exists) throw new ToolFailure(`"${file.relative}" already exists; to change it, give oldText copied from the file.`);
      edit.createFile(file.uri, { ignoreIfExists: false, contents: new TextEncoder().encode(newText) }, metadata);
    } else {
      if (!file.exists) throw new ToolFailure(`"${file.relative}" does not exist. Use an empty oldText to create it, or stratus_listFiles to find the right path.`);
      const doc = await vscode.workspace.openTextDocument(file.uri);
      const text = doc.getText();
      const normalizedOld = doc.eol === vscode.EndOfLine.CRLF ? oldText.replace(/\r?\n/g, '\r\n') : oldText;
      const count = occurrences(text, normalizedOld);
      if (count === 0) throw new ToolFailure(`oldText was not found in "${file.relative}". Read the file again (stratus_readFile) and copy the text exactly, whitespace included.`);
      if (count > 1) throw new ToolFailure(`oldText occurs ${count} times in "${file.relative}"; include more surrounding lines so it is unique.`);
      const start = doc.positionAt(text.indexOf(normalizedOld));
      const end = doc.positionAt(text.indexOf(normalizedOld) + normalizedOld.length);
      edit.replace(file.uri, new vscode.Range(start, end), newText, metadata);
    }
    const applied = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
    if (!applied) return textResult(`The edit to ${file.relative} was not applied: the user discarded it in the review, or the file changed meanwhile. Nothing was changed.`);
    return textResult(oldText ? `The edit to ${file.relative} was applied. It is not saved yet; the user can review it, then save or undo.` : `${file.relative} was created.`);
  }
}
