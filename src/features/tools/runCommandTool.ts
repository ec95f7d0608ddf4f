import * as vscode from 'vscode';
import { checkCommand, DEFAULT_COMMAND_ALLOWLIST } from '../../core/agent/commands';
import { codeFence, escapeMarkdown, inlineCode } from '../../core/markdown';
import { displayPath, resolveWorkspacePath, textResult, ToolFailure } from '../../platform/toolWorkspace';
import { stratusConfiguration } from '../../platform/settings';

interface RunCommandInput { command: string; args?: unknown[] }

const MAX_RESULT_CHARS = 20_000;

export function commandAllowlist(): string[] {
  // Application scope: only the user's own settings count, never a workspace's.
  const value = stratusConfiguration('stratus').get<unknown>('tools.commandAllowlist', [...DEFAULT_COMMAND_ALLOWLIST]);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [...DEFAULT_COMMAND_ALLOWLIST];
}

/** `{"$uri": "path"}` and `{"$position": {line, character}}` become VS Code objects; the rest stays JSON (checked plain by checkCommand). */
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
    const command = String(options.input.command ?? '');
    const args: unknown = options.input.args;
    const list = Array.isArray(args) ? args : args === undefined ? [] : [args];
    const allowed = Array.isArray(args) || args === undefined ? checkCommand(commandAllowlist(), command, list) : { ok: false as const, reason: '"args" must be an array.' };
    // Always confirmed, even a command that will be refused: invoke checks again, and nothing may
    // run unconfirmed if the allowlist changes in between. Arguments are shown whole (their size
    // is bounded by checkCommand, and a refused list is not run).
    const refusal = allowed.ok ? '' : `\n\n${vscode.l10n.t('(It is not allowed and will be refused: {0})', escapeMarkdown(allowed.reason))}`;
    const argsText = list.length > 0 ? (JSON.stringify(list, undefined, 1) ?? '') : '';
    const shown = argsText.length > 100_000 ? '' : argsText;
    const body = shown
      ? `${vscode.l10n.t('Run the VS Code command {0} with these arguments:', inlineCode(command))}\n\n${codeFence(shown, 'json')}`
      : argsText
        ? vscode.l10n.t('Run the VS Code command {0} with arguments too long to show.', inlineCode(command))
        : vscode.l10n.t('Run the VS Code command {0} with no arguments.', inlineCode(command));
    return {
      invocationMessage: vscode.l10n.t('Running command {0}', command),
      confirmationMessages: { title: vscode.l10n.t('Run a VS Code command?'), message: new vscode.MarkdownString(body + refusal) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RunCommandInput>): Promise<vscode.LanguageModelToolResult> {
    const command = String(options.input.command ?? '');
    const raw: unknown = options.input.args;
    if (raw !== undefined && !Array.isArray(raw)) throw new ToolFailure('"args" must be an array of the command\'s arguments.');
    const args = raw ?? [];
    const check = checkCommand(commandAllowlist(), command, args);
    if (!check.ok) throw new ToolFailure(check.reason);
    const converted = (await convertArg(args)) as unknown[];
    const result = await vscode.commands.executeCommand<unknown>(command, ...converted);
    return textResult(`Command ${command} ran.\nResult: ${describeValue(result)}`);
  }
}
