/**
 * The command allowlist of the run-command tool. An id runs only if it is listed exactly (no
 * prefixes, no case folding, no whitespace games), and no argument may smuggle in another command
 * (a `command:` URI, or an object naming a command), whatever the allowed command does with it.
 */

import { checkPlainJson } from './plainJson';

/** Read-only commands offered by default. */
export const DEFAULT_COMMAND_ALLOWLIST: readonly string[] = [
  'vscode.executeDocumentSymbolProvider',
  'vscode.executeWorkspaceSymbolProvider',
  'vscode.executeDefinitionProvider',
  'vscode.executeReferenceProvider',
  'vscode.executeHoverProvider',
  'vscode.executeImplementationProvider',
  'vscode.executeTypeDefinitionProvider',
  'workbench.actions.view.problems',
  'stratus.refreshModels',
];

const COMMAND_ID = /^[A-Za-z0-9_.:-]{1,200}$/;
/** Longest argument list (as JSON) a command may take: its confirmation shows all of it. */
export const MAX_ARGS_JSON = 20_000;

export type CommandCheck = { ok: true } | { ok: false; reason: string };

/** Run after checkPlainJson, so `value` is plain JSON of bounded depth. */
function smuggled(value: unknown): string | undefined {
  if (typeof value === 'string') {
    if (/^\s*command:/i.test(value)) return 'an argument is a command: URI';
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = smuggled(item);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (/^(command|commandId)$/i.test(key)) return `an argument has a "${key}" property`;
      const found = smuggled(item);
      if (found) return found;
    }
  }
  return undefined;
}

export function checkCommand(allowlist: readonly string[], id: string, args: readonly unknown[]): CommandCheck {
  if (!COMMAND_ID.test(id)) return { ok: false, reason: `"${id}" is not a command id.` };
  if (!allowlist.includes(id)) {
    return { ok: false, reason: `The command "${id}" is not in the allowlist (setting stratus.tools.commandAllowlist), so it was not run. Allowed: ${allowlist.join(', ') || '(none)'}.` };
  }
  const plain = checkPlainJson(args);
  if (!plain.ok) return { ok: false, reason: `The command "${id}" was not run: ${plain.reason}. Arguments must be plain JSON values (strings, numbers, booleans, null, arrays and objects of those), plus {"$uri": "path"} and {"$position": {"line": 0, "character": 0}}.` };
  if (JSON.stringify(args).length > MAX_ARGS_JSON) return { ok: false, reason: `The command "${id}" was not run: its arguments are longer than ${MAX_ARGS_JSON.toLocaleString('en')} characters of JSON (the user must be able to read them all before confirming).` };
  const found = smuggled(args);
  if (found) return { ok: false, reason: `The command "${id}" was not run: ${found}, which could run another command.` };
  return { ok: true };
}

/** Keeps the last `maxChars` characters of a growing output (task logs). */
export class OutputTail {
  private parts: string[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly maxChars: number) {}

  push(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    while (this.size - (this.parts[0]?.length ?? 0) >= this.maxChars && this.parts.length > 1) {
      const first = this.parts.shift() ?? '';
      this.size -= first.length;
      this.dropped += first.length;
    }
  }

  /** The tail, with a note when the beginning was cut. */
  text(): string {
    const joined = this.parts.join('');
    const cut = Math.max(0, joined.length - this.maxChars);
    const omitted = this.dropped + cut;
    const tail = joined.slice(cut);
    return omitted > 0 ? `[first ${omitted.toLocaleString('en')} characters omitted]\n${tail}` : tail;
  }
}
