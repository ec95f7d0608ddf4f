/**
 * The pure parts of the run-task tool: resolving the variables of a task's command, the order of
 * its `dependsOn` tasks, and the shell invocation of a shell task. Whatever cannot be resolved
 * exactly as VS Code would is refused with a sentence, never passed to the shell as it is.
 */

export type Resolved<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

export interface VariableContext {
  /** The task's workspace folder (absolute path), when it has one. */
  readonly workspaceFolder?: string | undefined;
  /** Every open folder by name, for `${workspaceFolder:name}`. */
  readonly folders: ReadonlyMap<string, string>;
  readonly userHome?: string | undefined;
  readonly pathSeparator: string;
  /** `${env:NAME}`: the extension host's environment (unset variables resolve to '' as in VS Code). */
  readonly env: (name: string) => string | undefined;
  /** `${config:section.key}`: the resolved setting value. */
  readonly config: (key: string) => unknown;
}

export const SUPPORTED_VARIABLES = '${workspaceFolder}, ${workspaceFolder:name}, ${workspaceFolderBasename}, ${workspaceRoot}, ${userHome}, ${pathSeparator}, ${/}, ${env:NAME}, ${config:key}';

function basename(path: string): string {
  return path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? path;
}

function resolveOne(name: string, ctx: VariableContext): Resolved<string> {
  const refuse = (reason: string): Resolved<string> => ({ ok: false, reason });
  const noFolder = refuse(`\${${name}} needs a workspace folder, and this task has none.`);
  switch (name) {
    case 'workspaceFolder':
    case 'workspaceRoot':
      return ctx.workspaceFolder !== undefined ? { ok: true, value: ctx.workspaceFolder } : noFolder;
    case 'workspaceFolderBasename':
      return ctx.workspaceFolder !== undefined ? { ok: true, value: basename(ctx.workspaceFolder) } : noFolder;
    case 'userHome':
      return ctx.userHome !== undefined ? { ok: true, value: ctx.userHome } : refuse('${userHome} is not known here.');
    case 'pathSeparator':
    case '/':
      return { ok: true, value: ctx.pathSeparator };
    default:
      break;
  }
  const colon = name.indexOf(':');
  const kind = colon >= 0 ? name.slice(0, colon) : name;
  const arg = colon >= 0 ? name.slice(colon + 1) : '';
  switch (kind) {
    case 'env':
      return arg ? { ok: true, value: ctx.env(arg) ?? '' } : refuse('${env:} names no variable.');
    case 'config': {
      const value = ctx.config(arg);
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { ok: true, value: String(value) };
      return refuse(value === undefined ? `\${config:${arg}} names no setting that has a value.` : `\${config:${arg}} is not a string, number or boolean setting.`);
    }
    case 'workspaceFolder': {
      const folder = ctx.folders.get(arg);
      return folder !== undefined ? { ok: true, value: folder } : refuse(`\${workspaceFolder:${arg}} names no open folder.`);
    }
    case 'input':
      return refuse(`\${input:${arg}} asks the user for a value, and the run-task tool cannot ask.`);
    case 'command':
      return refuse(`\${command:${arg}} runs a command to compute a value, which the run-task tool does not do.`);
    default:
      return refuse(`\${${name}} depends on the editor or is not a variable the run-task tool resolves.`);
  }
}

/** Replaces every `${...}` in `text`, or says which one cannot be resolved and why. */
export function resolveVariables(text: string, ctx: VariableContext): Resolved<string> {
  let failure: string | undefined;
  const value = text.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (failure !== undefined) return whole;
    const one = resolveOne(name, ctx);
    if (!one.ok) {
      failure = one.reason;
      return whole;
    }
    return one.value;
  });
  if (failure !== undefined) return { ok: false, reason: `${failure} Supported variables: ${SUPPORTED_VARIABLES}.` };
  return { ok: true, value };
}

/** A tasks.json entry, as far as ordering goes. */
export interface TaskNode {
  readonly label: string;
  readonly dependsOn: readonly string[];
  readonly isBackground: boolean;
}

/** Reads the `tasks` array of a tasks.json into nodes by label; entries it cannot read are skipped, odd `dependsOn` forms are refused later. */
export function taskNodes(raw: unknown): Map<string, TaskNode | { readonly label: string; readonly invalid: string }> {
  const nodes = new Map<string, TaskNode | { label: string; invalid: string }>();
  if (!Array.isArray(raw)) return nodes;
  for (const entry of raw as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const record = entry as Record<string, unknown>;
    const label = typeof record.label === 'string' ? record.label : typeof record.taskName === 'string' ? record.taskName : undefined;
    if (label === undefined || nodes.has(label)) continue;
    const deps = record.dependsOn === undefined ? [] : Array.isArray(record.dependsOn) ? (record.dependsOn as unknown[]) : [record.dependsOn];
    const isBackground = record.isBackground === true;
    if (deps.every((d): d is string => typeof d === 'string')) nodes.set(label, { label, dependsOn: deps, isBackground });
    else nodes.set(label, { label, invalid: `"${label}" names a task in dependsOn by its definition (an object), which the run-task tool does not resolve; use labels.` });
  }
  return nodes;
}

export const MAX_TASK_STEPS = 20;

/**
 * The tasks to run for `root`, dependencies first (depth first, in the order `dependsOn` lists
 * them; each task once), `root` last. VS Code may run `dependsOrder: parallel` dependencies at
 * the same time; running them one after another gives the same results for tasks that end.
 * Cycles, unknown labels, background dependencies and more than MAX_TASK_STEPS tasks are refused.
 */
export function dependencyOrder(root: string, lookup: (label: string) => TaskNode | { readonly label: string; readonly invalid: string } | undefined): Resolved<string[]> {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (label: string, path: readonly string[]): string | undefined => {
    if (state.get(label) === 'done') return undefined;
    if (state.get(label) === 'visiting') return `The tasks depend on each other in a cycle: ${[...path, label].join(' -> ')}.`;
    const node = lookup(label);
    if (node === undefined) return path.length === 0 ? undefined : `"${path.at(-1) ?? ''}" depends on "${label}", which is not a task of this workspace.`;
    if ('invalid' in node) return node.invalid;
    if (node.isBackground && path.length > 0) return `"${path.at(-1) ?? ''}" depends on "${label}", a background (watch) task that does not end on its own; the run-task tool runs only tasks that end.`;
    state.set(label, 'visiting');
    for (const dep of node.dependsOn) {
      const found = visit(dep, [...path, label]);
      if (found) return found;
    }
    state.set(label, 'done');
    order.push(label);
    return order.length > MAX_TASK_STEPS ? `"${root}" needs more than ${MAX_TASK_STEPS} tasks with its dependencies.` : undefined;
  };
  const failure = visit(root, []);
  if (failure) return { ok: false, reason: failure };
  return { ok: true, value: order.length > 0 ? order : [root] };
}

export type ShellFamily = 'posix' | 'cmd' | 'powershell';

export function shellFamily(executable: string): ShellFamily {
  const name = basename(executable).toLowerCase().replace(/\.exe$/, '');
  if (name === 'cmd') return 'cmd';
  if (name === 'powershell' || name === 'pwsh') return 'powershell';
  return 'posix';
}

export type ArgQuoting = 'escape' | 'strong' | 'weak' | undefined;

/** One argument of a shell task given as command + args, quoted as VS Code quotes it for the shell. */
export function quoteShellArg(value: string, quoting: ArgQuoting, family: ShellFamily): string {
  const needs = quoting !== undefined || /[\s"'`$\\;&|<>()*?!#~]/.test(value) || value === '';
  if (!needs) return value;
  const kind = quoting ?? 'strong';
  if (family === 'posix') {
    if (kind === 'escape') return value.replace(/([\s"'`$\\;&|<>()*?!#~])/g, '\\$1');
    if (kind === 'weak') return `"${value.replace(/(["\\`])/g, '\\$1')}"`;
    return `'${value.replace(/'/g, `'\\''`)}'`;
  }
  if (family === 'powershell') {
    if (kind === 'escape') return value.replace(/([\s"'`$;&|<>(){}])/g, '`$1');
    if (kind === 'weak') return `"${value.replace(/(["`])/g, '`$1')}"`;
    return `'${value.replace(/'/g, "''")}'`;
  }
  return kind === 'escape' ? value.replace(/([\s&|<>()^"])/g, '^$1') : `"${value.replace(/"/g, '""')}"`;
}

export interface ShellInvocation {
  readonly command: string;
  readonly args: string[];
  /** cmd.exe parses its own command line: pass it as it is (Node's windowsVerbatimArguments). */
  readonly verbatim: boolean;
}

/**
 * How a shell task's command line is run: the task's `options.shell` (executable and args) when
 * it sets one, else `/bin/sh` (POSIX) or `cmd.exe` (Windows). The flag that makes the shell run a
 * command (`-c`, `/d /c`, `-Command`) is added when the given args do not already hold it.
 */
export function shellInvocation(commandLine: string, shell: { executable?: string | undefined; args?: readonly string[] | undefined } | undefined, platform: NodeJS.Platform, comspec = 'cmd.exe'): ShellInvocation {
  const executable = shell?.executable || (platform === 'win32' ? comspec : '/bin/sh');
  const family = shellFamily(executable);
  const args = [...(shell?.args ?? [])];
  const required = family === 'cmd' ? ['/d', '/c'] : family === 'powershell' ? ['-Command'] : ['-c'];
  for (const flag of required) if (!args.some((a) => a.toLowerCase() === flag.toLowerCase())) args.push(flag);
  if (family === 'cmd') return { command: executable, args: [...args, `"${commandLine}"`], verbatim: true };
  return { command: executable, args: [...args, commandLine], verbatim: false };
}
