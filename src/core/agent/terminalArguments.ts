/**
 * The arguments a command adds after an auto-approve rule's words (`git log` + `-1 --output x`),
 * judged one by one. A rule approves a program and its subcommand with *harmless* arguments; an
 * argument that makes it write a file or run another program, or that names a place outside the
 * workspace folder, is the user's to confirm, whatever the rule. Denied here (then it asks):
 *  - a long option that writes or executes (`--output`, `--exec`, `--upload-pack`, `--config`,
 *    `--script-shell`, `--require`, ...), in any case, with or without `=value`, and any
 *    abbreviation of one (git and npm accept unambiguous prefixes: `--outp` is `--output`), or a
 *    longer name that begins with one (`--output-directory`, `--config-env`);
 *  - a short option cluster holding a letter that writes or executes in common tools (`-o` output,
 *    `-O`, `-c` config/command, `-C` change directory, `-e` eval/expression, `-x` exec, `-r`
 *    require, `-i` in place), alone or clustered (`-xo`, `-ofile`);
 *  - a `~` where the shell expands it (`~`, `~user`, after `=` or `:`), an absolute path (`/x`, `C:/x`, `//host`),
 *    a `..` path that climbs out of the folder, or the same as an option's or `name=`'s value;
 *  - a glob character (`*`, `?`, `[`): the shell replaces it with file names, and a committed file
 *    named `--output=x` turns `git log *` into `git log --output=x`;
 *  - a response file (`@args.txt`): its contents become arguments nobody saw.
 * The lists are short and program-agnostic on purpose: a false alarm (`grep -i`, `wc -c` behind a
 * rule `grep` or `wc`) costs one confirmation, a miss can cost a `~/.bashrc`; a rule that needs
 * such an option can name it (`grep -i`), since the rule's own words are not judged.
 * Quotes are removed first, as the shell does (`"--out"put` is `--output`). Backslashes, `$`,
 * redirections and the like never get here: terminalApproval.ts asks for those before.
 */

/** Long options (without dashes, lower case) that write files, run programs or change where or how the tool runs. */
export const WRITE_OR_EXEC_LONG_OPTIONS: readonly string[] = [
  // Writing files.
  'output', 'outfile', 'out-file', 'outdir', 'out-dir', 'output-file', 'output-dir', 'log-file',
  'tsbuildinfofile', 'declarationdir', 'prefix', 'global', 'template',
  // Running programs.
  'exec', 'exec-path', 'upload-pack', 'receive-pack', 'script-shell', 'shell', 'pager', 'editor', 'ext-diff', 'textconv',
  'eval', 'require', 'import', 'loader', 'experimental-loader', 'node-options', 'init-module', 'command', 'interpreter', 'sequence-editor', 'gpg-program', 'ssh', 'hooks', 'hookspath',
  // Changing where the tool runs or which configuration it obeys.
  'config', 'config-env', 'userconfig', 'globalconfig', 'git-dir', 'work-tree', 'namespace', 'directory', 'chdir',
  'project', 'rcfile', 'env-file',
];

/**
 * Short, common words that write or run only as themselves (or abbreviated): `--fix` writes,
 * `--fixed-strings` does not, `--run` runs, `--runInBand` only says how.
 */
export const WRITE_OR_EXEC_EXACT_OPTIONS: readonly string[] = ['out', 'write', 'fix', 'print', 'run', 'cwd', 'dir', 'cache', 'tmp'];

/** Short option letters that write or execute in common tools (`sort -o`, `git -c`, `git -C`, `node -e`, `-x` exec, `node -r`, `sed -i`, `wget -O`). */
export const WRITE_OR_EXEC_SHORT_LETTERS = 'oOcCexri';

const GLOB = /[*?[]/;
/** Where the shell expands a tilde: at a word's start, or after `=` or `:` (assignments); `HEAD~1` is not one. */
const TILDE = /(^|[=:])~/;
const DRIVE = /^[A-Za-z]:/;

/** Whether `name` (an option's name, lower case) is, abbreviates or extends a write/exec option. */
function isWriteOrExecName(name: string): boolean {
  if (name === '') return false;
  return WRITE_OR_EXEC_LONG_OPTIONS.some((option) => option.startsWith(name) || name.startsWith(option)) || WRITE_OR_EXEC_EXACT_OPTIONS.some((option) => option.startsWith(name));
}

/** Why a path-like value leaves the workspace folder; undefined if it stays inside. */
export function outsidePathReason(value: string): string | undefined {
  if (TILDE.test(value)) return 'names a home folder (~)';
  if (value.startsWith('/') || value.startsWith('\\') || DRIVE.test(value)) return 'is an absolute path';
  let depth = 0;
  for (const segment of value.split('/')) {
    if (segment === '..') depth--;
    else if (segment !== '' && segment !== '.') depth++;
    if (depth < 0) return 'climbs out of the folder (..)';
  }
  return undefined;
}

/** Why one argument (quotes removed) makes the command more than its rule approved; undefined if harmless. */
export function argumentRisk(argument: string): string | undefined {
  if (GLOB.test(argument)) return 'contains a glob character (* ? [), which the shell replaces with file names';
  if (argument.startsWith('@')) return 'is a response file (@file), whose contents become arguments';
  const outside = outsidePathReason(argument);
  if (outside !== undefined) return outside;
  const equals = argument.indexOf('=');
  const value = equals >= 0 ? argument.slice(equals + 1) : '';
  const valueOutside = equals >= 0 ? outsidePathReason(value) : undefined;
  if (valueOutside !== undefined) return `has a value that ${valueOutside}`;
  if (argument.startsWith('--')) {
    const name = (equals >= 0 ? argument.slice(2, equals) : argument.slice(2)).toLowerCase();
    if (isWriteOrExecName(name)) return 'is an option that can write files or run programs';
    return undefined;
  }
  if (argument.startsWith('-') && argument.length > 1) {
    const cluster = equals >= 0 ? argument.slice(1, equals) : argument.slice(1);
    if ([...cluster].some((letter) => WRITE_OR_EXEC_SHORT_LETTERS.includes(letter))) return 'is an option that can write files or run programs';
  }
  return undefined;
}

/** The words of a command line as the shell would see them (quotes removed, split on blanks). */
export function commandWords(command: string): string[] {
  return command.replace(/["']/g, '').split(' ').filter((word) => word !== '');
}

/** The first argument after the rule's words that asks, with why; undefined when all are harmless. */
export function riskyArgument(command: string, rule: string): { argument: string; reason: string } | undefined {
  const ruleWords = commandWords(rule).length;
  for (const argument of commandWords(command).slice(ruleWords)) {
    const reason = argumentRisk(argument);
    if (reason !== undefined) return { argument, reason };
  }
  return undefined;
}
