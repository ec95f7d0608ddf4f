import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { EditOutcome, ReviewOutcome as EditReviewState } from '../../src/features/edit/register';
import type { ReviewOutcome } from '../../src/features/review/register';
import type { GitApi, GitRepository } from '../../src/platform/git';
import { registerReviewChatCommand } from '../../src/features/review/chat';
import { ReviewComments } from '../../src/features/review/comments';
import { RecordingStream, testDeps } from './fakes';
import { control, eventually, requests, sandbox } from './sandbox';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Stratus Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });

interface GitApiWithOpen extends GitApi {
  openRepository(root: vscode.Uri): Promise<GitRepository | null>;
}

/** The git extension's API (the test workbench starts with `git.enabled: false`: turned on here, off after the suite). */
async function gitApi(): Promise<GitApiWithOpen> {
  const extension = vscode.extensions.getExtension<{ readonly enabled: boolean; getAPI(v: 1): GitApiWithOpen }>('vscode.git');
  assert.ok(extension, 'the built-in git extension is there');
  const exports = await extension.activate();
  if (!exports.enabled) await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
  await vscode.workspace.getConfiguration('git').update('openRepositoryInParentFolders', 'always', vscode.ConfigurationTarget.Global);
  await eventually(async () => (exports.enabled ? true : undefined), 'the git extension to find git');
  const api = exports.getAPI(1);
  await eventually(async () => (api.state === 'initialized' ? true : undefined), 'the git extension to initialise');
  return api;
}

/** Twenty numbered lines: the base of the file under review. */
const BASE = Array.from({ length: 20 }, (_, k) => `export const line${k + 1} = ${k + 1};`).join('\n') + '\n';

/** The base with lines inserted after line 12 (1-based new lines 13.. hold `added`). */
function withInserted(added: readonly string[]): string {
  const lines = BASE.trimEnd().split('\n');
  lines.splice(12, 0, ...added);
  return `${lines.join('\n')}\n`;
}

/** A real repository in a new temporary folder: one commit, then `staged` files staged. */
async function makeRepository(name: string, staged: Record<string, string>): Promise<GitRepository> {
  const root = join(mkdtempSync(join(tmpdir(), 'stratus-review-')), name);
  mkdirSync(join(root, 'src'), { recursive: true });
  git(tmpdir(), 'init', '-q', root);
  writeFileSync(join(root, '.gitignore'), '*.secret\n');
  writeFileSync(join(root, 'src', 'cart.ts'), BASE);
  writeFileSync(join(root, 'token.secret'), 'old\n');
  git(root, 'add', '-A');
  git(root, 'add', '-f', 'token.secret');
  git(root, 'commit', '-q', '-m', 'feat: the cart');
  for (const [path, text] of Object.entries(staged)) writeFileSync(join(root, path), text);
  git(root, 'add', '-f', ...Object.keys(staged));
  const repository = await (await gitApi()).openRepository(vscode.Uri.file(root));
  assert.ok(repository, `the git extension opened ${root}`);
  return repository;
}

const sourceControlOf = (repository: GitRepository): { id: string; label: string; rootUri: vscode.Uri } => ({ id: 'git', label: 'Git', rootUri: repository.rootUri });

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}

async function sentSince(before: number): Promise<Array<{ role: string; content: string }[]>> {
  return (await requests('/v1/chat/completions')).filter((r) => r.seq > before).map((r) => (r.body?.json as { messages: { role: string; content: string }[] }).messages);
}

describe('Review Changes: findings as comment threads, Apply Fix (a real git repository, against the sandbox)', function () {
  this.timeout(60_000);

  beforeEach(async () => {
    await control('/reset', {});
    await control('/recorded-strings', { maxChars: 400_000 });
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'gpt-oss:120b', vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('stratus.review.dismissAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    await control('/reset', {});
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('git').update('openRepositoryInParentFolders', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  it('puts each finding on its line, an off-diff line on the nearest change, another file in the summary; ignored files never sent', async () => {
    const repository = await makeRepository('shop', {
      'src/cart.ts': withInserted(['export const run = (input: string) => eval(input);', '// TODO: handle discounts', 'export const far = 1; // REVIEW-FAR', 'export const docs = 2; // REVIEW-ELSEWHERE REVIEW-BAD']),
      'token.secret': 'SECRET-VALUE eval(x)\n',
    });
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<ReviewOutcome>('stratus.reviewChanges', sourceControlOf(repository));
    assert.equal(outcome.status, 'reviewed', JSON.stringify(outcome));
    assert.equal(outcome.source, 'staged');
    assert.equal(outcome.parts, 1);
    const cart = vscode.Uri.joinPath(repository.rootUri, 'src', 'cart.ts').toString();
    assert.deepEqual(outcome.findings?.map((f) => [f.uri === cart, f.line, f.requestedLine, f.placement, f.severity]), [
      [true, 13, 13, 'exact', 'error'],
      [true, 14, 14, 'exact', 'info'],
      [true, 16, 1015, 'nearest', 'warning'],
    ]);
    assert.match(outcome.findings?.[0]?.label ?? '', /^Stratus review: security · error$/);
    assert.deepEqual(outcome.unplaced?.map((f) => `${f.file}:${f.line}`), ['docs/elsewhere.md:3']);
    assert.match(outcome.summary ?? '', /^3 finding\(s\) on the staged changes \(1 error\(s\), 1 warning\(s\), 1 info\), shown as comments in the editor\./);
    assert.match(outcome.summary ?? '', /1 named a line outside the diff and were placed on the nearest changed line\./);
    assert.match(outcome.summary ?? '', /1 name a file that is not in the diff: docs\/elsewhere\.md:3\./);
    assert.match(outcome.summary ?? '', /1 item\(s\) of the answer were not findings/);
    assert.match(outcome.summary ?? '', /Not sent \(matched by \.gitignore\): 1 file\(s\)\./);
    const sent = await sentSince(before);
    assert.equal(sent.length, 1);
    const user = sent[0]?.find((m) => m.role === 'user')?.content ?? '';
    assert.match(sent[0]?.[0]?.content ?? '', /^You review code changes/);
    assert.match(user, /### src\/cart\.ts \(modified, \+4 -0\)/);
    assert.match(user, /\n {4}13 \+export const run = \(input: string\) => eval\(input\);/);
    // Ten lines of context around the change: line 3 is shown (git's default of 3 would start at 10).
    assert.match(user, /\n {5}3 {2}export const line3 = 3;/);
    for (const absent of ['SECRET-VALUE', 'token.secret']) assert.ok(!user.includes(absent), `${absent} was sent`);
  });

  it('Apply Fix rewrites the finding\'s line through edit by instruction, as a diff to accept; Dismiss removes the thread', async () => {
    const repository = await makeRepository('fix', { 'src/cart.ts': withInserted(['export const run = (input: string) => eval(input);', '// TODO: later']) });
    const outcome = await vscode.commands.executeCommand<ReviewOutcome>('stratus.reviewChanges', sourceControlOf(repository));
    assert.equal(outcome.status, 'reviewed', JSON.stringify(outcome));
    const [security, todo] = outcome.findings ?? [];
    assert.ok(security && todo);
    const before = await lastSeq();
    const fixed = await vscode.commands.executeCommand<EditOutcome>('stratus.review.applyFix', security.id);
    assert.equal(fixed.status, 'review', JSON.stringify(fixed));
    assert.equal(fixed.hunks, 1);
    const edit = (await sentSince(before))[0];
    assert.match(edit?.at(-1)?.content ?? '', /Instruction: Fix this review finding \(security\): eval runs arbitrary code from its input\. Suggested fix: rename eval to safeEval/);
    const document = vscode.window.activeTextEditor?.document;
    assert.equal(document?.uri.toString(), security.uri);
    const shown = document?.getText() ?? '';
    assert.ok(shown.includes('=> eval(input);') && shown.includes('=> safeEval(input);'), `the old and the new line both shown for review:\n${shown}`);
    assert.equal(await vscode.commands.executeCommand<EditReviewState>('stratus.edit.acceptAll'), 'accepted');
    assert.equal(document?.lineAt(12).text, 'export const run = (input: string) => safeEval(input);');
    await vscode.commands.executeCommand('workbench.action.files.revert');

    assert.equal(await vscode.commands.executeCommand<boolean>('stratus.review.dismiss', todo.id), true);
    const gone = await vscode.commands.executeCommand<EditOutcome>('stratus.review.applyFix', todo.id);
    assert.equal(gone.status, 'notStarted');
    assert.match(gone.message ?? '', /this review comment is gone/);
  });

  it('Apply Fix after lines were added above finds the line where it moved', async () => {
    const repository = await makeRepository('moved', { 'src/cart.ts': withInserted(['export const run = (input: string) => eval(input);']) });
    const outcome = await vscode.commands.executeCommand<ReviewOutcome>('stratus.reviewChanges', sourceControlOf(repository));
    const finding = outcome.findings?.[0];
    assert.ok(finding);
    const editor = await vscode.window.showTextDocument(vscode.Uri.parse(finding.uri));
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// one\n// two\n')));
    const fixed = await vscode.commands.executeCommand<EditOutcome>('stratus.review.applyFix', finding.id);
    assert.equal(fixed.status, 'review', JSON.stringify(fixed));
    assert.equal(await vscode.commands.executeCommand<EditReviewState>('stratus.edit.acceptAll'), 'accepted');
    assert.equal(editor.document.lineAt(14).text, 'export const run = (input: string) => safeEval(input);');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('reviews a diff larger than the model\'s context in parts, and the summary says so', async () => {
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'qwen2.5-coder:7b', vscode.ConfigurationTarget.Global);
    const block = Array.from({ length: 1500 }, (_, k) => `export const generatedValue${k} = ${k} * 2 + 1; // padding`);
    const repository = await makeRepository('large', { 'src/cart.ts': withInserted([...block, 'export const late = (s: string) => eval(s);']) });
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<ReviewOutcome>('stratus.reviewChanges', sourceControlOf(repository));
    assert.equal(outcome.status, 'reviewed', JSON.stringify(outcome).slice(0, 2000));
    assert.ok((outcome.parts ?? 0) >= 2, `${outcome.parts} parts`);
    assert.match(outcome.summary ?? '', new RegExp(`The diff was too large for one request and was reviewed in ${outcome.parts} parts\\.`));
    const sent = (await requests('/v1/chat/completions')).filter((r) => r.seq > before);
    assert.equal(sent.length, outcome.parts);
    assert.ok(sent.every((r) => r.status === 200), 'every part fitted the context');
    assert.deepEqual(outcome.findings?.map((f) => [f.line, f.severity]), [[13 + 1500, 'error']]);
  });

  it('a staged review puts its comments where the reviewed lines are now, past unstaged and unsaved edits; a line changed since is listed, not guessed', async () => {
    const staged = withInserted(['export const run = (input: string) => eval(input);', '// TODO: handle discounts']);
    const repository = await makeRepository('unstaged', { 'src/cart.ts': staged });
    // Unstaged: ten lines above the change, and the TODO line rewritten.
    const header = Array.from({ length: 10 }, (_, k) => `// header ${k + 1}`).join('\n');
    writeFileSync(join(repository.rootUri.fsPath, 'src', 'cart.ts'), `${header}\n${staged.replace('// TODO: handle discounts', '// handled: discounts')}`);
    // Unsaved: two more lines above, in the editor only.
    const editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(repository.rootUri, 'src', 'cart.ts'));
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// unsaved 1\n// unsaved 2\n')));
    try {
      const outcome = await vscode.commands.executeCommand<ReviewOutcome>('stratus.reviewChanges', sourceControlOf(repository));
      assert.equal(outcome.status, 'reviewed', JSON.stringify(outcome));
      assert.equal(outcome.source, 'staged');
      assert.deepEqual(outcome.findings?.map((f) => [f.line, f.requestedLine, f.severity]), [[13 + 12, 13, 'error']]);
      assert.equal(editor.document.lineAt(24).text, 'export const run = (input: string) => eval(input);');
      assert.deepEqual(outcome.unplaced?.map((f) => [`${f.file}:${f.line}`, f.reason]), [['src/cart.ts:14', 'moved']]);
      assert.match(outcome.summary ?? '', /^1 finding\(s\) on the staged changes \(1 error\(s\), 0 warning\(s\), 0 info\), shown as comments in the editor\./);
      assert.match(outcome.summary ?? '', /Not shown, their line changed since the review \(unstaged or unsaved edits\): src\/cart\.ts:14\./);
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  it('with findings but none on a line in the editor, the summary does not call them comments', async () => {
    const repository = await makeRepository('elsewhere', { 'src/cart.ts': withInserted(['export const docs = 2; // REVIEW-ELSEWHERE']) });
    const outcome = await vscode.commands.executeCommand<ReviewOutcome>('stratus.reviewChanges', sourceControlOf(repository));
    assert.equal(outcome.status, 'reviewed', JSON.stringify(outcome));
    assert.deepEqual(outcome.findings, []);
    assert.match(outcome.summary ?? '', /^1 finding\(s\) on the staged changes, none of them shown in the editor \(0 error\(s\), 0 warning\(s\), 1 info\)\. 1 name a file that is not in the diff: docs\/elsewhere\.md:3\./);
    assert.ok(!/shown as comments/.test(outcome.summary ?? ''), outcome.summary);
  });

  it('a staged pure rename (with the user\'s diff.mnemonicPrefix) is not counted as reviewed: nothing sent, and it says so', async () => {
    const repository = await makeRepository('rename', {});
    git(repository.rootUri.fsPath, 'config', 'diff.mnemonicPrefix', 'true');
    git(repository.rootUri.fsPath, 'mv', 'src/cart.ts', 'src/basket.ts');
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<ReviewOutcome>('stratus.reviewChanges', sourceControlOf(repository));
    assert.equal(outcome.status, 'failed', JSON.stringify(outcome));
    assert.match(outcome.error ?? '', /nothing to review, nothing was sent: no line changed in src\/basket\.ts \(renamed or mode changed only\)/);
    assert.equal(await lastSeq(), before);
  });

  it('with nothing to review, says so and sends nothing', async () => {
    const repository = await makeRepository('clean', { 'token.secret': 'only an ignored file\n' });
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<ReviewOutcome>('stratus.reviewChanges', sourceControlOf(repository));
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.error ?? '', /Cannot review the changes: every changed file is matched by a \.gitignore/);
    assert.equal(await lastSeq(), before);
  });

  /** Markdown as it reads once rendered: backslash escapes removed. */
  const unescaped = (markdown: string): string => markdown.replace(/\\(.)/g, '$1');

  /** Runs `@stratus /review` through the chat command as the participant would, with its own comment threads. */
  async function chatReview(token: vscode.CancellationToken, running = new Set<string>()): Promise<{ stream: RecordingStream; result: vscode.ChatResult; comments: number }> {
    const { deps, disposables } = testDeps('Stratus review chat test', sandbox().apiKey);
    const comments = new ReviewComments();
    const registration = registerReviewChatCommand(deps, comments, running);
    try {
      const command = deps.chatCommands.get('review');
      assert.ok(command, '/review is registered');
      const stream = new RecordingStream();
      const request = { prompt: '', command: 'review', references: [], toolReferences: [] } as unknown as vscode.ChatRequest;
      const result = await command.handle(request, { history: [] } as unknown as vscode.ChatContext, stream.asStream(), token);
      return { stream, result, comments: comments.size };
    } finally {
      registration.dispose();
      comments.dispose();
      for (const d of disposables) d.dispose();
    }
  }

  it('@stratus /review streams a summary with a link to each finding and creates the same threads (the active editor\'s repository)', async () => {
    const repository = await makeRepository('chat', { 'src/cart.ts': withInserted(['export const run = (input: string) => eval(input);', '// TODO: later']) });
    const cart = vscode.Uri.joinPath(repository.rootUri, 'src', 'cart.ts');
    await vscode.window.showTextDocument(cart);
    const { stream, result, comments } = await chatReview(new vscode.CancellationTokenSource().token);
    assert.deepEqual(result.metadata, { command: 'review', status: 'reviewed', findings: 2, parts: 1 });
    assert.equal(comments, 2, 'two comment threads');
    // The model's and the summary's words are escaped Markdown: read as rendered.
    const text = unescaped(stream.text);
    assert.match(text, /^2 finding\(s\) on the staged changes \(1 error\(s\), 0 warning\(s\), 1 info\)/);
    assert.match(text, /\*\*error\*\*: eval runs arbitrary code from its input\./);
    assert.deepEqual(stream.anchors.map((a) => a.value instanceof vscode.Location ? [a.value.uri.toString(), a.value.range.start.line, a.title] : []), [
      [cart.toString(), 12, 'src/cart.ts:13'.replace('src/cart.ts', vscode.workspace.asRelativePath(cart, false))],
      [cart.toString(), 13, 'src/cart.ts:14'.replace('src/cart.ts', vscode.workspace.asRelativePath(cart, false))],
    ]);
    assert.ok(stream.progress.some((p) => /reviewing with gpt-oss:120b/.test(p)), stream.progress.join('\n'));
  });

  it('@stratus /review while that repository is already under review answers so in the chat, sending nothing', async () => {
    const repository = await makeRepository('busy', { 'src/cart.ts': withInserted(['export const run = (input: string) => eval(input);']) });
    await vscode.window.showTextDocument(vscode.Uri.joinPath(repository.rootUri, 'src', 'cart.ts'));
    const before = await lastSeq();
    const { stream, result, comments } = await chatReview(new vscode.CancellationTokenSource().token, new Set([repository.rootUri.toString()]));
    assert.equal((result.metadata as { status?: string }).status, 'notStarted');
    assert.equal(comments, 0);
    assert.match(unescaped(stream.text), /Stratus is already reviewing the changes of busy\./);
    assert.equal(await lastSeq(), before);
  });

  it('@stratus /review cancelled while the model answers stops the request and shows nothing', async () => {
    const repository = await makeRepository('cancel', { 'src/cart.ts': withInserted(['export const run = (input: string) => eval(input);']) });
    await vscode.window.showTextDocument(vscode.Uri.joinPath(repository.rootUri, 'src', 'cart.ts'));
    await control('/latency', { ms: 3000, pathPrefix: '/v1/chat/completions' });
    const before = await lastSeq();
    const source = new vscode.CancellationTokenSource();
    const running = chatReview(source.token);
    await eventually(async () => ((await requests('/v1/chat/completions')).some((r) => r.seq > before) ? true : undefined), 'the review request to reach the sandbox');
    source.cancel();
    const { stream, result, comments } = await running;
    assert.equal((result.metadata as { status?: string }).status, 'cancelled');
    assert.equal(comments, 0);
    assert.match(unescaped(stream.text), /The review was cancelled; nothing was shown\./);
  });
});
