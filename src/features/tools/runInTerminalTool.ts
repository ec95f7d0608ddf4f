import * as vscode from 'vscode';
import { decideAutoApproval, parseAutoApproveRules } from '../../core/agent/terminalApproval';
import { headAndTail, plainTerminalText } from '../../core/agent/terminalOutput';
import { codeFence, escapeMarkdown, inlineCode } from '../../core/markdown';
import type { WorkspaceTrustGate } from '../../services/workspaceTrust';
import { resolveWorkspacePath, textResult, ToolFailure } from '../../platform/toolWorkspace';
import { stratusConfiguration } from '../../platform/settings';

interface RunInTerminalInput { command: string; cwd?: string }

/** Most characters of output returned to the model (head and tail kept). */
export const MAX_TERMINAL_OUTPUT_CHARS = 16_000;
/** How long a new terminal may take to report shell integration. */
const SHELL_INTEGRATION_WAIT_MS = 15_000;
/** After Ctrl+C, how long the command has to end before its terminal is closed. */
const INTERRUPT_GRACE_MS = 5_000;
/** How often a running command's terminal is checked for an exited shell. */
const EXIT_POLL_MS = 250;

/** Application scope: a workspace's settings cannot approve commands. */
export function autoApproveRules(): string[] {
  return parseAutoApproveRules(stratusConfiguration('stratus').get<unknown>('agent.autoApproveCommands', []));
}

export function terminalTimeoutMs(): number {
  const seconds = stratusConfiguration('stratus').get<unknown>('agent.terminalTimeoutSeconds', 300);
  return (typeof seconds === 'number' && Number.isFinite(seconds) ? Math.min(86_400, Math.max(1, seconds)) : 300) * 1000;
}

/** The folder the command runs in: the given workspace folder (or sub-folder), else the first workspace folder. */
async function workingFolder(cwd: unknown): Promise<vscode.Uri> {
  if (typeof cwd === 'string' && cwd.trim() !== '' && cwd.trim() !== '.') return (await resolveWorkspacePath(cwd)).uri;
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) throw new ToolFailure('There is no workspace folder on disk to run the command in.');
  return folder.uri;
}

function delay<T>(ms: number, value: T): { promise: Promise<T>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(value), ms)));
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * The terminal's shell integration once its shell has shown its first prompt (it reports the
 * prompt's folder). Undefined when the terminal reports no shell integration in time, closes, or the
 * request is cancelled; a shell that never reports its folder is used when the wait ends.
 */
async function shellIntegrationOf(terminal: vscode.Terminal, token: vscode.CancellationToken): Promise<vscode.TerminalShellIntegration | undefined> {
  const disposables: vscode.Disposable[] = [];
  const wait = delay<undefined>(SHELL_INTEGRATION_WAIT_MS, undefined);
  try {
    if (terminal.shellIntegration?.cwd === undefined) {
      await Promise.race([
        new Promise<void>((resolve) => disposables.push(vscode.window.onDidChangeTerminalShellIntegration((e) => e.terminal === terminal && e.shellIntegration.cwd !== undefined && resolve()))),
        new Promise<void>((resolve) => disposables.push(token.onCancellationRequested(() => resolve()))),
        new Promise<void>((resolve) => disposables.push(vscode.window.onDidCloseTerminal((t) => t === terminal && resolve()))),
        wait.promise,
      ]);
    }
    return token.isCancellationRequested || terminal.exitStatus !== undefined ? undefined : terminal.shellIntegration;
  } finally {
    wait.cancel();
    for (const d of disposables) d.dispose();
  }
}

type End = { kind: 'exit'; code: number | undefined } | { kind: 'closed'; code: number | undefined } | { kind: 'cancelled' } | { kind: 'timeout' };

export class RunInTerminalTool implements vscode.LanguageModelTool<RunInTerminalInput> {
  /** Terminals whose command ended: left open for the user to read until the next command. */
  private readonly finished = new Set<vscode.Terminal>();

  /** Restricted Mode: the gate's `run` verdict decides whether any rule may approve. */
  constructor(private readonly trust: Pick<WorkspaceTrustGate, 'allows'>) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunInTerminalInput>): Promise<vscode.PreparedToolInvocation> {
    const command = String(options.input.command ?? '');
    const folder = await workingFolder(options.input.cwd).then((u) => u.fsPath, (e: unknown) => `(${e instanceof Error ? e.message : String(e)})`);
    const invocationMessage = vscode.l10n.t('Running {0}', command.length > 80 ? `${command.slice(0, 80)}…` : command);
    const approval = decideAutoApproval(command, autoApproveRules(), { trusted: this.trust.allows('run') });
    if (approval.approve) return { invocationMessage };
    const warning = approval.dangerous ? `⚠️ **${vscode.l10n.t('Always asked: {0}.', escapeMarkdown(approval.reason))}**\n\n` : '';
    const message = `${warning}${vscode.l10n.t('Run this command in a terminal, in the folder {0}:', inlineCode(folder))}\n\n${codeFence(command, 'sh')}`;
    return { invocationMessage, confirmationMessages: { title: vscode.l10n.t('Run a command in the terminal?'), message: new vscode.MarkdownString(message) } };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RunInTerminalInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const command = options.input.command;
    if (typeof command !== 'string' || command.trim() === '') throw new ToolFailure('command must be a non-empty string.');
    const cwd = await workingFolder(options.input.cwd);
    for (const old of this.finished) old.dispose();
    this.finished.clear();
    const terminal = vscode.window.createTerminal({ name: vscode.l10n.t('@stratus: {0}', command.length > 40 ? `${command.slice(0, 40)}…` : command), cwd, isTransient: true });
    const integration = await shellIntegrationOf(terminal, token);
    if (token.isCancellationRequested) {
      terminal.dispose();
      return textResult('The command was not run: the request was cancelled.');
    }
    if (!integration) {
      terminal.dispose();
      throw new ToolFailure(
        'The command was not run: the terminal did not report shell integration, which this tool needs to read the output and exit code. The user can enable it (setting terminal.integrated.shellIntegration.enabled, with bash, zsh, fish or PowerShell as the default shell), or run the command themselves.',
      );
    }
    terminal.show(true);
    const timeoutMs = terminalTimeoutMs();
    // Events are matched by terminal, not by execution: VS Code can mis-read the command line off
    // the screen (seen here: "ho started" for "echo started") and then reports the command as an
    // execution of its own, never ending the one executeCommand returned.
    const disposables: vscode.Disposable[] = [];
    let output = '';
    const readings: Promise<void>[] = [];
    const reading = new Set<vscode.TerminalShellExecution>();
    const read = (execution: vscode.TerminalShellExecution): void => {
      if (reading.has(execution)) return;
      reading.add(execution);
      readings.push((async () => {
        for await (const data of execution.read()) output += data;
      })().catch(() => undefined));
    };
    disposables.push(
      vscode.window.onDidStartTerminalShellExecution((e) => {
        if (e.terminal !== terminal) return;
        read(e.execution);
      }),
    );
    const execution = integration.executeCommand(command);
    read(execution);
    const timeout = delay<End>(timeoutMs, { kind: 'timeout' });
    let end: End;
    try {
      end = await Promise.race([
        new Promise<End>((resolve) => disposables.push(vscode.window.onDidEndTerminalShellExecution((e) => e.terminal === terminal && resolve({ kind: 'exit', code: e.exitCode })))),
        new Promise<End>((resolve) => disposables.push(vscode.window.onDidCloseTerminal((t) => t === terminal && resolve({ kind: 'closed', code: t.exitStatus?.code })))),
        // A shell that exits with an error stays open (VS Code shows its exit code) without a close
        // event, and `exit` ends no execution: its exit status is looked at until then.
        new Promise<End>((resolve) => {
          const poll = setInterval(() => terminal.exitStatus !== undefined && resolve({ kind: 'closed', code: terminal.exitStatus.code }), EXIT_POLL_MS);
          disposables.push({ dispose: () => clearInterval(poll) });
        }),
        new Promise<End>((resolve) => disposables.push(token.onCancellationRequested(() => resolve({ kind: 'cancelled' })))),
        timeout.promise,
      ]);
      if (end.kind === 'cancelled' || end.kind === 'timeout') {
        // Ctrl+C to the foreground process; the terminal is closed if it does not end soon.
        terminal.sendText('\x03', false);
        const grace = delay(INTERRUPT_GRACE_MS, false);
        const ended = await Promise.race([
          new Promise<boolean>((resolve) => disposables.push(vscode.window.onDidEndTerminalShellExecution((e) => e.terminal === terminal && resolve(true)))),
          new Promise<boolean>((resolve) => disposables.push(vscode.window.onDidCloseTerminal((t) => t === terminal && resolve(true)))),
          grace.promise,
        ]);
        grace.cancel();
        if (!ended) terminal.dispose();
      }
    } finally {
      timeout.cancel();
      for (const d of disposables) d.dispose();
      this.finished.add(terminal);
    }
    // The stream ends with the execution; a closed terminal may leave it open: wait a little only.
    const settle = delay(1_000, undefined);
    await Promise.race([Promise.all(readings), settle.promise]);
    settle.cancel();
    const cut = headAndTail(plainTerminalText(output).trim(), MAX_TERMINAL_OUTPUT_CHARS);
    const shown = cut.text ? `Output${cut.omitted > 0 ? ' (head and tail)' : ''}:\n${cut.text}` : 'Output: (none)';
    switch (end.kind) {
      case 'cancelled':
        return textResult(`The command was interrupted (Ctrl+C) because the request was cancelled.\n${shown}`);
      case 'timeout':
        return textResult(`The command was interrupted (Ctrl+C) at the time limit (${Math.round(timeoutMs / 1000)} s, setting stratus.agent.terminalTimeoutSeconds).\n${shown}`);
      default: {
        const code = end.code ?? (end.kind === 'exit' ? undefined : terminal.exitStatus?.code);
        const status = code === undefined ? 'ended (exit code unknown)' : code === 0 ? 'succeeded (exit code 0)' : `failed (exit code ${code})`;
        return textResult(`The command ${status}${end.kind === 'closed' ? ' and its terminal closed' : ''}.\n${shown}`);
      }
    }
  }
}
