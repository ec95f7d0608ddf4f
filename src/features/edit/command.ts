import * as vscode from 'vscode';
import { buildEditPrompt, DEFAULT_CONTEXT_TOKENS, estimateEditCostEur, MAX_CONTEXT_LINES, parseEditArgs, streamEdit, type EditArgs, type EditPromptInput } from '../../core/edit';
import { presentError, type PresentedError } from '../../core/presentError';
import { formatEur } from '../../core/usage/format';
import { notificationText } from '../../platform/errorActions';
import type { DocumentChangeLog } from '../../platform/documentChangeLog';
import { showPresentedError, type ErrorNotificationOptions } from '../../platform/errorNotification';
import type { Deps } from '../deps';
import { defaultChatModel } from '../../services/chatModelSelection';
import { EditRun } from './editRun';
import { linesOf } from './documentEdits';
import { InstructionInput } from './input';
import { diagnosticsIn, resolveTarget, type EditTarget } from './target';
import { stratusConfiguration } from '../../platform/settings';
import type { EditOutcome } from '../../core/edit/outcome';

/** The last edit's range and instruction, for "Edit Again". */
export interface LastEdit {
  readonly uri: vscode.Uri;
  readonly firstLine: number;
  readonly lineCount: number;
  readonly instruction: string;
  /** The document version those line numbers were read in. */
  readonly version: number;
}

export interface EditHost {
  readonly deps: Deps;
  readonly input: InstructionInput;
  readonly styles: { removed: vscode.TextEditorDecorationType; added: vscode.TextEditorDecorationType };
  /** Recent changes of open documents: a range read in an earlier version (`args.version`) is found where it moved. */
  readonly changes: DocumentChangeLog;
  /** Starts tracking a run (the previous one, if any, is rejected first). */
  begin(run: EditRun): Promise<void>;
}

function notify(deps: Deps, presented: Pick<PresentedError, 'message' | 'actions'>, more: Partial<ErrorNotificationOptions> = {}): string {
  const options: ErrorNotificationOptions = { log: deps.logChannel, prefix: vscode.l10n.t('Edit with Instruction:'), ...more };
  void showPresentedError(presented, options);
  return notificationText(presented.message, options);
}

function costPreviewLines(): number {
  return Math.max(1, stratusConfiguration('stratus').get<number>('edit.costPreviewLines', 200));
}

/** "Stratus: Edit with Instruction...": the contract in package.json's command and README. */
export async function editWithInstruction(host: EditHost, rawArgs: unknown, refine?: LastEdit): Promise<EditOutcome> {
  const { deps } = host;
  let args: EditArgs;
  try {
    const lastRange = refine && { start: { line: refine.firstLine, character: 0 }, end: { line: refine.firstLine + Math.max(1, refine.lineCount) - 1, character: Number.MAX_SAFE_INTEGER } };
    // The last edit's lines as they were when it ended: found where later changes moved them (or stale).
    args = refine && lastRange ? { uri: refine.uri.toString(), range: lastRange, version: refine.version, ...pickInstruction(rawArgs) } : parseEditArgs(rawArgs);
  } catch (error) {
    return { status: 'refused', hunks: 0, message: notify(deps, presentError(error)) };
  }
  let target;
  try {
    target = await resolveTarget(args, host.changes);
  } catch (error) {
    return { status: 'refused', hunks: 0, message: notify(deps, presentError(error)) };
  }
  if (!target) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Stratus: open an editor and select the code to edit.'));
    return { status: 'notStarted', hunks: 0 };
  }
  const anchored = target;
  let run: EditRun | undefined;
  try {
    return await prepareAndRun(host, args, anchored, refine, (started) => (run = started));
  } finally {
    // The run owns the anchored lines once it started; before that they are this command's.
    if (!run) anchored.lines.dispose();
  }
}

/** The lines' text changed while the instruction was asked for (or before): refused, nothing changed. */
function staleRefusal(deps: Deps): EditOutcome {
  return { status: 'refused', hunks: 0, message: notify(deps, { message: vscode.l10n.t('the text changed inside the range to edit while the edit was being prepared, so nothing was changed. Select it again and retry.'), actions: [] }) };
}

async function prepareAndRun(host: EditHost, args: EditArgs, target: EditTarget, refine: LastEdit | undefined, started: (run: EditRun) => void): Promise<EditOutcome> {
  const { deps } = host;
  const { document } = target;
  const chosen = target.lines.span;
  if (!chosen) return staleRefusal(deps);
  const configured = await deps.inference.isConfigured();
  if (!configured.apiKey || !configured.baseUrl) {
    const presented: Pick<PresentedError, 'message' | 'actions'> = configured.apiKey
      ? { message: vscode.l10n.t('not configured: set the inference base URL (stratus.inference.baseUrl).'), actions: ['openSettings'] }
      : { message: vscode.l10n.t('not configured: set your inference API key.'), actions: ['setApiKey'] };
    return { status: 'notStarted', hunks: 0, message: notify(deps, presented) };
  }
  const { lineCount } = chosen;
  let input: EditPromptInput;
  let modelId: string;
  try {
    const model = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Stratus: preparing the edit…') }, () => defaultChatModel(deps.inference));
    if (!model) return { status: 'failed', hunks: 0, message: notify(deps, { message: vscode.l10n.t('The service lists no chat model.'), actions: ['showLog'] }) };
    modelId = model.id;
    const instructions = await deps.instructions.forFile(document.uri, model.maxModelLen ?? DEFAULT_CONTEXT_TOKENS);
    const span = target.lines.span;
    if (!span) return staleRefusal(deps);
    input = { instruction: args.instruction ?? '', instructions, maxModelLen: model.maxModelLen, ...promptLines(document, span.firstLine, lineCount) };
  } catch (error) {
    return { status: 'failed', hunks: 0, message: notify(deps, presentError(error)) };
  }
  // Sized before asking: a range too large is refused now, and a large one shows its cost.
  let sized;
  try {
    sized = buildEditPrompt(input);
  } catch (error) {
    return { status: 'refused', hunks: 0, message: notify(deps, presentError(error)) };
  }
  let instruction = args.instruction;
  if (instruction === undefined) {
    const firstLine = input.startLine;
    const title = lineCount === 1 ? vscode.l10n.t('Stratus: Edit line {0} with Instruction', firstLine + 1) : vscode.l10n.t('Stratus: Edit lines {0}-{1} with Instruction', firstLine + 1, firstLine + lineCount);
    const detail = lineCount > costPreviewLines() ? vscode.l10n.t('{0} lines: about {1} with {2} (estimated at the contract rates)', lineCount, formatEur(estimateEditCostEur(sized)), modelId) : undefined;
    instruction = await host.input.ask({ title, detail, value: refine?.instruction });
    if (instruction === undefined) return { status: 'notStarted', hunks: 0 };
  }
  await host.input.remember(instruction);
  // Everything above awaited: the lines are read again where they are now (never the numbers chosen
  // before the instruction box opened), and refused if their text changed meanwhile.
  const now = target.lines.span;
  if (!now) return staleRefusal(deps);
  const prompt = buildEditPrompt({ ...input, ...promptLines(document, now.firstLine, now.lineCount), instruction });
  const run = new EditRun(target.lines, instruction, host.styles);
  started(run);
  await host.begin(run);
  try {
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Stratus: editing with {0}…', modelId) }, () =>
      streamEdit({ client: deps.inference.client(), model: modelId, prompt, session: run.session, signal: run.controller.signal, onEdits: (edits) => run.push(edits) }),
    );
    await run.streamEnded();
    deps.connectionStatus.set({ kind: 'connected', model: modelId });
    if (result.truncated) void vscode.window.showWarningMessage(vscode.l10n.t('Stratus: the answer was cut at its token limit; the end of the range was kept as it was.'));
    const hunks = run.session.hunks().length;
    if (run.state === 'abandoned') return { status: 'abandoned', hunks };
    // Rejected while the last tokens arrived (the request had ended before the abort).
    if (run.controller.signal.aborted && run.state === 'rejected') return { status: 'cancelled', hunks };
    return { status: run.session.changed ? 'review' : 'unchanged', hunks };
  } catch (error) {
    if (run.state === 'abandoned') return { status: 'abandoned', hunks: run.session.hunks().length };
    if (run.controller.signal.aborted) {
      await run.rejectAll();
      return { status: 'cancelled', hunks: run.session.hunks().length };
    }
    await run.rejectAll();
    const presented = presentError(error);
    if (presented.cancelled) return { status: 'cancelled', hunks: 0 };
    return { status: 'failed', hunks: 0, message: notify(deps, presented, { suffix: vscode.l10n.t('The range was left as it was.') }) };
  }
}

/** The prompt's view of the document: the lines to rewrite where they are now, and the lines around them. */
function promptLines(document: vscode.TextDocument, firstLine: number, lineCount: number): Pick<EditPromptInput, 'languageId' | 'relativePath' | 'before' | 'range' | 'after' | 'startLine' | 'diagnostics'> {
  return {
    languageId: document.languageId,
    relativePath: vscode.workspace.asRelativePath(document.uri, false),
    before: linesOf(document, Math.max(0, firstLine - MAX_CONTEXT_LINES), Math.min(firstLine, MAX_CONTEXT_LINES)),
    range: linesOf(document, firstLine, lineCount),
    after: linesOf(document, firstLine + lineCount, MAX_CONTEXT_LINES),
    startLine: firstLine,
    diagnostics: diagnosticsIn(document, firstLine, lineCount),
  };
}

/** "Edit Again" takes only an instruction (the range is the last edit's). */
function pickInstruction(rawArgs: unknown): { instruction?: string } {
  const parsed = parseEditArgs(rawArgs);
  return parsed.instruction !== undefined ? { instruction: parsed.instruction } : {};
}
