/**
 * Auto-approval of `runInTerminal` commands: `stratus.agent.autoApproveCommands` holds exact-prefix
 * rules ("npm test" approves `npm test` and `npm test -- --grep x`, not `npm testing`). A command
 * runs without confirmation only if it matches a rule AND none of these holds (then it always asks):
 *  - it contains a character a shell gives meaning to beyond plain words: `;` `&` `|` backtick `$`
 *    `(` `)` `<` `>` `\` `^` `%` `!` `{` `}`, which covers chaining (`;`, `&&`, `||`), pipes
 *    (`curl ... | sh`), substitution (`` ` ``, `$(`), variables, redirections and escapes, in
 *    POSIX shells, PowerShell and cmd.exe alike;
 *  - it contains a control character (newline, tab...) or any character outside printable ASCII
 *    (look-alike and invisible characters);
 *  - one of its words, after quotes are removed (`"r"m` is `rm`) and a path prefix is dropped
 *    (`/bin/rm`), is a deleting or privilege-raising program (`rm`, `sudo`, `dd`, `del`, ...) or
 *    `find`'s `-delete`/`-exec`.
 * Everything else asks too; the confirmation always shows the exact command and folder.
 */

export type AutoApproval =
  | { readonly approve: true; readonly rule: string }
  | { readonly approve: false; readonly reason: string; /** A dangerous pattern, not merely no matching rule. */ readonly dangerous: boolean };

export const MAX_RULES = 200;
export const MAX_COMMAND_LENGTH = 2000;

const SHELL_META = /[;&|`$()<>\\^%!{}]/;
const OUTSIDE_PRINTABLE_ASCII = /[^\x20-\x7e]/;
const DANGEROUS_WORDS = new Set([
  'rm', 'rmdir', 'unlink', 'shred', 'dd', 'truncate', 'sudo', 'su', 'doas', 'pkexec', 'runas', 'chmod', 'chown', 'chgrp',
  'del', 'erase', 'rd', 'remove-item', 'ri', 'rimraf', 'xargs', 'eval', 'exec', 'source',
  '-delete', '-exec', '-execdir', '-ok', '-okdir',
]);

/** Dangerous as the program only (`npm run format` is common and harmless). */
const DANGEROUS_PROGRAMS = new Set(['format', 'diskpart', 'fdisk', 'parted']);

function dangerousWord(command: string): string | undefined {
  const words = command.replace(/["']/g, '').split(' ').filter((w) => w !== '');
  for (const [index, word] of words.entries()) {
    const lower = word.toLowerCase();
    const base = lower.slice(lower.lastIndexOf('/') + 1);
    if (DANGEROUS_WORDS.has(base) || DANGEROUS_WORDS.has(lower) || base.startsWith('mkfs')) return word;
    if (index === 0 && DANGEROUS_PROGRAMS.has(base)) return word;
  }
  return undefined;
}

/** Why the command must always be confirmed, whatever the rules say; undefined if no reason. */
export function alwaysAskReason(command: string): string | undefined {
  if (command.trim() === '') return 'the command is empty';
  if (command.length > MAX_COMMAND_LENGTH) return `the command is longer than ${MAX_COMMAND_LENGTH} characters`;
  if (OUTSIDE_PRINTABLE_ASCII.test(command)) return 'the command contains a control or non-ASCII character';
  const meta = SHELL_META.exec(command);
  if (meta) return `the command contains "${meta[0]}" (chaining, pipes, substitution, variables or redirection)`;
  const word = dangerousWord(command);
  if (word !== undefined) return `the command runs "${word}", which can delete files or raise privileges`;
  return undefined;
}

/** The usable rules of the setting's value: strings, trimmed, non-empty, themselves safe. */
export function parseAutoApproveRules(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const rules: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') continue;
    const rule = item.trim();
    if (rule === '' || alwaysAskReason(rule) !== undefined || rules.includes(rule)) continue;
    rules.push(rule);
    if (rules.length >= MAX_RULES) break;
  }
  return rules;
}

export function decideAutoApproval(command: string, rules: readonly string[]): AutoApproval {
  const reason = alwaysAskReason(command);
  if (reason !== undefined) return { approve: false, reason, dangerous: true };
  const trimmed = command.trim();
  for (const raw of rules) {
    const rule = raw.trim();
    if (rule === '' || alwaysAskReason(rule) !== undefined) continue;
    if (trimmed === rule || trimmed.startsWith(`${rule} `)) return { approve: true, rule };
  }
  return { approve: false, reason: 'no rule of stratus.agent.autoApproveCommands matches it', dangerous: false };
}
