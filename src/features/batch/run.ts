import * as vscode from 'vscode';
import { fileCustomId, fileRequest, textHash, type BatchRequest } from '../../core/inference/batch';
import { parsePromptFile, PROMPT_FILE_SUFFIX } from '../../core/agent/customization/promptFile';
import { addChatRequestTokens, estimateJobCost, type JobCostEstimate } from '../../core/usage/batchCost';
import { askBatchMode, bulkJobCapRefusal, type BatchMode } from '../../platform/batchJobUi';
import { readSettings } from '../../platform/settings';
import { readWorkspaceText } from '../../platform/workspaceFiles';
import { workspaceIgnoreJudge } from '../../platform/workspaceIgnores';
import type { BatchJobItem } from '../../services/batchJobs';
import type { PromptOverFilesArgs } from '../../services/promptOverFiles';
import type { Deps } from '../deps';
import { MAX_FILE_BYTES } from './review';

/** Most files one run takes (a glob that matches more is refused with its count). */
export const MAX_FILES = 2_000;

/** The command's arguments (services/promptOverFiles.ts): the instruction and glob from the chat, the mode in tests only. */
export type RunArgs = PromptOverFilesArgs;

export interface PreparedJob {
  instruction: string;
  model: string;
  items: BatchJobItem[];
  requests: BatchRequest[];
  estimate: JobCostEstimate;
  skipped: string[];
}

/** The instruction: a prompt file of the workspace, or one typed. */
export async function askInstruction(): Promise<string | undefined> {
  const files = await vscode.workspace.findFiles(`**/*${PROMPT_FILE_SUFFIX}`, '**/node_modules/**', 50);
  const typed = { label: vscode.l10n.t('Type an instruction…'), uri: undefined as vscode.Uri | undefined };
  const items = [typed, ...files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }))];
  const picked = files.length === 0 ? typed : await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Run Prompt over Files: the instruction') });
  if (!picked) return undefined;
  if (!picked.uri) return vscode.window.showInputBox({ title: vscode.l10n.t('Run Prompt over Files: the instruction'), prompt: vscode.l10n.t('What to do to every file'), ignoreFocusOut: true });
  const read = await readWorkspaceText(picked.uri, MAX_FILE_BYTES);
  if (!read.ok) return undefined;
  return parsePromptFile(read.text, picked.uri.path.split('/').pop() ?? 'prompt').body.trim() || undefined;
}

export async function askGlob(): Promise<string | undefined> {
  return vscode.window.showInputBox({ title: vscode.l10n.t('Run Prompt over Files: the files'), prompt: vscode.l10n.t('A glob of workspace files, e.g. src/**/*.ts'), value: 'src/**/*.ts', ignoreFocusOut: true });
}

async function chatModel(deps: Deps, signal: AbortSignal): Promise<string | undefined> {
  const wanted = readSettings().chatModel;
  if (wanted) return wanted;
  const models = await deps.inference.client().models.list({ signal });
  // The chat-capable kinds (as features/models offers them to VS Code).
  return models.find((m) => m.kind === 'chat' || m.kind === 'vision')?.id;
}

/** Finds the files of `glob`, reads them (through the confined reader) and builds one request per file, with the estimate. */
export async function prepareJob(deps: Deps, instruction: string, glob: string, signal: AbortSignal): Promise<PreparedJob | { error: string }> {
  const model = await chatModel(deps, signal);
  if (!model) return { error: vscode.l10n.t('No chat model is available. Pick a model first.') };
  const uris = await vscode.workspace.findFiles(glob, '**/node_modules/**', MAX_FILES + 1);
  if (uris.length === 0) return { error: vscode.l10n.t('No workspace file matches {0}.', glob) };
  if (uris.length > MAX_FILES) return { error: vscode.l10n.t('More than {0} files match {1}: narrow the glob.', MAX_FILES, glob) };
  uris.sort((a, b) => a.toString().localeCompare(b.toString()));
  return prepareFiles(model, instruction, uris);
}

/** The job of `uris` (read now, through the confined reader): one request per file, with the estimate. */
export async function prepareFiles(model: string, instruction: string, uris: readonly vscode.Uri[]): Promise<PreparedJob | { error: string }> {
  const items: BatchJobItem[] = [];
  const requests: BatchRequest[] = [];
  const skipped: string[] = [];
  const tokens = { inputTokens: 0, outputTokens: 0 };
  // A glob matches ignored files too (a .gitignored .env): never sent, as workspace search never reads them.
  const ignored = workspaceIgnoreJudge();
  for (const [i, uri] of uris.entries()) {
    const label = vscode.workspace.asRelativePath(uri);
    if ((await ignored(uri)) !== undefined) {
      skipped.push(label);
      continue;
    }
    const read = await readWorkspaceText(uri, MAX_FILE_BYTES);
    if (!read.ok || read.binary || read.truncated) {
      skipped.push(label);
      continue;
    }
    const sentHash = textHash(read.text);
    // Bound to what was sent: an answer of another job or file never matches this item.
    const customId = fileCustomId(i, { model, instruction, uri: uri.toString(), sentHash });
    const request = fileRequest({ customId, instruction, path: label, text: read.text, model });
    items.push({ customId, uri: uri.toString(), label, sentHash });
    requests.push(request);
    addChatRequestTokens(tokens, request.body as Parameters<typeof addChatRequestTokens>[1]);
  }
  if (items.length === 0) return { error: vscode.l10n.t('None of the matching files can be sent (binary, too large or unreadable).') };
  return { instruction, model, items, requests, estimate: estimateJobCost(tokens), skipped };
}

/** Now (standard price) or as a batch (half price): both prices shown before anything is sent. */
export function askMode(job: PreparedJob): Promise<BatchMode | undefined> {
  return askBatchMode({
    title: vscode.l10n.t('Run Prompt over Files: send now or as a batch?'),
    what: vscode.l10n.t('{0} files', job.items.length),
    estimate: job.estimate,
    nowDetail: vscode.l10n.t('One request per file, against the hourly cap.'),
  });
}

/** Why the caps of one task refuse the job at the price chosen (before anything is sent); undefined when it fits. */
export function capRefusal(job: PreparedJob, mode: BatchMode): string | undefined {
  return bulkJobCapRefusal(job.estimate, mode, vscode.l10n.t('this job over {0} files', job.items.length), vscode.l10n.t('Narrow the glob, choose the batch price, or raise the cap.'));
}

/** Sends every request now, one at a time (standard price, metered as chat). */
export async function runNow(deps: Deps, job: PreparedJob, token: vscode.CancellationToken, signal: AbortSignal): Promise<Map<string, unknown>> {
  const answers = new Map<string, unknown>();
  for (const request of job.requests) {
    if (token.isCancellationRequested) break;
    const body = request.body as { model: string; messages: Array<{ role: 'system' | 'user'; content: string }>; max_tokens: number };
    const result = await deps.inference.client().chat({ model: body.model, messages: body.messages, max_tokens: body.max_tokens }, { signal });
    answers.set(request.customId, { choices: [{ message: { content: result.text } }] });
  }
  return answers;
}
