/**
 * Auto-approval of `runInTerminal` commands: `stratus.agent.autoApproveCommands` holds exact-prefix
 * rules ("npm test" approves `npm test` and `npm test -- --grep x`, not `npm testing`).
 *
 * Why prefix rules with a judge of the added arguments, rather than anchored patterns (as VS Code's
 * own terminal auto-approve): the setting's users already write prefixes, and a pattern is no safer
 * unless every user writes it tightly; `/^git log\b/` approves `--output ~/.bashrc` just as the
 * prefix did. The danger is in what follows the rule, and the same short list of options and path
 * shapes covers every rule, so it is judged once here (terminalArguments.ts) for all of them: an
 * added argument that writes a file or runs a program (`--output`, `-o`, `-c`, `--exec`,
 * `--script-shell`, their `=` forms, abbreviations and clusters), names a place outside the folder
 * (`~`, absolute, `..` climbing out), or lets the shell pick it (glob characters) always asks.
 * The rule itself is the user's own choice and is not judged (a rule `sort -o out.txt` stands).
 * This runs only in a trusted workspace: in Restricted Mode nothing is auto-approved
 * (`decideAutoApproval`'s `workspace.trusted`).
 *
 * A command runs without confirmation only if it matches a rule AND none of these holds (then it always asks):
 *  - it contains a character a shell gives meaning to beyond plain words: `;` `&` `|` backtick `$`
 *    `(` `)` `<` `>` `\` `^` `%` `!` `{` `}`, which covers chaining (`;`, `&&`, `||`), pipes
 *    (`curl ... | sh`), substitution (`` ` ``, `$(`), variables, redirections and escapes, in
 *    POSIX shells, PowerShell and cmd.exe alike;
 *  - it contains a control character (newline, tab...) or any character outside printable ASCII
 *    (look-alike and invisible characters);
 *  - one of its words, after quotes are removed (`"r"m` is `rm`) and a path prefix is dropped
 *    (`/bin/rm`), is a deleting or privilege-raising program (`rm`, `sudo`, `dd`, `del`, ...) or
 *    `find`'s `-delete`/`-exec`;
 *  - an argument after the rule's words writes, executes or leaves the folder (terminalArguments.ts).
 * Everything else asks too; the confirmation always shows the exact command and folder.
 */

export type AutoApproval =
  | { readonly approve: true; readonly rule: string }
  | { readonly approve: false; readonly reason: string; /** A dangerous pattern, not merely no matching rule. */ readonly dangerous: boolean };

import { riskyArgument } from './terminalArguments';

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

export const RESTRICTED_MODE_REASON = 'the workspace is in Restricted Mode (not trusted), where no command is auto-approved';

/**
 * Whether `command` runs without a confirmation. `workspace.trusted` is its Workspace Trust: in Restricted
 * Mode every command asks, since anything the agent read there may have steered it.
 */
export function decideAutoApproval(command: string, rules: readonly string[], workspace: { readonly trusted: boolean }): AutoApproval {
  const reason = alwaysAskReason(command);
  if (reason !== undefined) return { approve: false, reason, dangerous: true };
  if (!workspace.trusted) return { approve: false, reason: RESTRICTED_MODE_REASON, dangerous: false };
  const trimmed = command.trim();
  for (const raw of rules) {
    const rule = raw.trim();
    if (rule === '' || alwaysAskReason(rule) !== undefined) continue;
    if (trimmed !== rule && !trimmed.startsWith(`${rule} `)) continue;
    const risky = riskyArgument(trimmed, rule);
    if (risky !== undefined) return { approve: false, reason: `the argument "${risky.argument}" ${risky.reason}`, dangerous: true };
    return { approve: true, rule };
  }
  return { approve: false, reason: 'no rule of stratus.agent.autoApproveCommands matches it', dangerous: false };
}
