import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CommitMessageOutcome } from '../../src/features/commitMessage/register';
import type { GitApi, GitRepository } from '../../src/platform/git';
import { control, eventually, requests, sandbox } from './sandbox';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Stratus Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });

interface GitApiWithOpen extends GitApi {
  openRepository(root: vscode.Uri): Promise<GitRepository | null>;
}

/** The git extension's API. The test workbench starts with `git.enabled: false` (test/harness/settings.mjs): turned on here (and off again after the suite). */
async function gitApi(): Promise<GitApiWithOpen> {
  const extension = vscode.extensions.getExtension<{ readonly enabled: boolean; getAPI(v: 1): GitApiWithOpen }>('vscode.git');
  assert.ok(extension, 'the built-in git extension is there');
  const exports = await extension.activate();
  if (!exports.enabled) await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
  // The repositories are made outside the workspace folder: VS Code 1.104 opens those only when told to.
  await vscode.workspace.getConfiguration('git').update('openRepositoryInParentFolders', 'always', vscode.ConfigurationTarget.Global);
  await eventually(async () => (exports.enabled ? true : undefined), 'the git extension to find git');
  const api = exports.getAPI(1);
  await eventually(async () => (api.state === 'initialized' ? true : undefined), 'the git extension to initialise');
  return api;
}

/**
 * A real repository in a new temporary folder: three commits in Conventional Commits style, a
 * `.gitignore` that matches a file tracked anyway, then `stage` and leave `unstaged` changes.
 */
async function makeRepository(name: string, changes: { staged: Record<string, string>; unstaged: Record<string, string> }): Promise<GitRepository> {
  const root = join(mkdtempSync(join(tmpdir(), 'stratus-git-')), name);
  mkdirSync(join(root, 'src'), { recursive: true });
  git(tmpdir(), 'init', '-q', root);
  writeFileSync(join(root, '.gitignore'), '*.secret\n');
  writeFileSync(join(root, 'src', 'cart.ts'), 'export const items = [];\n');
  writeFileSync(join(root, 'src', 'price.ts'), 'export const price = 1;\n');
  writeFileSync(join(root, 'token.secret'), 'old\n');
  git(root, 'add', '-A');
  git(root, 'add', '-f', 'token.secret');
  git(root, 'commit', '-q', '-m', 'feat(cart): add the cart');
  writeFileSync(join(root, 'src', 'price.ts'), 'export const price = 2;\n');
  git(root, 'commit', '-q', '-am', 'fix(price): raise the price');
  writeFileSync(join(root, 'README.md'), '# shop\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'docs: add a readme');
  for (const [path, text] of Object.entries(changes.staged)) writeFileSync(join(root, path), text);
  if (Object.keys(changes.staged).length > 0) git(root, 'add', '-f', ...Object.keys(changes.staged));
  for (const [path, text] of Object.entries(changes.unstaged)) writeFileSync(join(root, path), text);
  const api = await gitApi();
  const repository = await api.openRepository(vscode.Uri.file(root));
  assert.ok(repository, `the git extension opened ${root}`);
  return repository;
}

/** What the scm/title button passes: the repository's SourceControl (its `rootUri` is what matters). */
const sourceControlOf = (repository: GitRepository): { id: string; label: string; rootUri: vscode.Uri } => ({ id: 'git', label: 'Git', rootUri: repository.rootUri });

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}

describe('Write Commit Message (a real git repository, against the sandbox)', function () {
  this.timeout(60_000);

  beforeEach(async () => {
    await control('/reset', {});
    await control('/recorded-strings', { maxChars: 200_000 });
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    await vscode.workspace.getConfiguration('stratus').update('chat.model', 'gpt-oss:120b', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await control('/reset', {});
    await vscode.workspace.getConfiguration('stratus').update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('git').update('openRepositoryInParentFolders', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  it('writes the message of the staged changes into the input box of the repository whose button was pressed, in its style, .gitignore matches never sent', async () => {
    const other = await makeRepository('other', { staged: { 'src/cart.ts': 'export const other = true;\n' }, unstaged: {} });
    other.inputBox.value = 'draft of the other repository';
    const shop = await makeRepository('shop', {
      staged: { 'src/cart.ts': 'export const items: string[] = [];\nexport const coupons = [];\n', 'token.secret': 'SECRET-VALUE\n' },
      unstaged: { 'src/price.ts': 'export const price = 99; // UNSTAGED-EDIT\n' },
    });
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<CommitMessageOutcome>('stratus.generateCommitMessage', sourceControlOf(shop));
    assert.equal(outcome.status, 'written', JSON.stringify(outcome));
    assert.equal(outcome.source, 'staged');
    assert.equal(outcome.repository, shop.rootUri.fsPath);
    assert.equal(shop.inputBox.value, outcome.message, 'the message is in that repository\'s input box');
    assert.equal(other.inputBox.value, 'draft of the other repository', 'the other repository is untouched');
    // The sandbox's model echoes the prompt: the message shows what was sent.
    const message = shop.inputBox.value;
    assert.match(message, /^Echo \(gpt-oss:120b\): Write the commit message for the staged changes of the repository "shop"\./);
    assert.match(message, /- docs: add a readme\n- fix\(price\): raise the price\n- feat\(cart\): add the cart/);
    assert.match(message, /### src\/cart\.ts \(modified, \+2 -1\)/);
    assert.match(message, /\+export const coupons = \[\];/);
    for (const absent of ['UNSTAGED-EDIT', 'SECRET-VALUE', 'token.secret']) assert.ok(!message.includes(absent), `${absent} was sent`);
    const sent = (await requests('/v1/chat/completions')).filter((r) => r.seq > before);
    assert.equal(sent.length, 1);
    assert.ok(sent[0]?.streamed, 'the message was streamed');
    const body = sent[0]?.body?.json as { messages?: { role: string; content: string }[] } | undefined;
    assert.match(body?.messages?.[0]?.content ?? '', /Conventional Commits/, 'the repository\'s style is in the system message');
  });

  it('describes the unstaged changes when nothing is staged, and says so', async () => {
    const repository = await makeRepository('unstaged', { staged: {}, unstaged: { 'src/price.ts': 'export const price = 3; // UNSTAGED-EDIT\n' } });
    const outcome = await vscode.commands.executeCommand<CommitMessageOutcome>('stratus.generateCommitMessage', sourceControlOf(repository));
    assert.equal(outcome.status, 'written', JSON.stringify(outcome));
    assert.equal(outcome.source, 'unstaged');
    assert.match(outcome.notice ?? '', /Nothing was staged: the message describes the unstaged changes\./);
    assert.match(repository.inputBox.value, /^Echo \(gpt-oss:120b\): Nothing is staged in the repository "unstaged": write the commit message for its unstaged changes to tracked files\./);
    assert.match(repository.inputBox.value, /UNSTAGED-EDIT/);
  });

  it('from the palette, with several repositories, writes for the active editor\'s repository', async () => {
    const first = await makeRepository('first', { staged: { 'src/cart.ts': 'export const first = 1;\n' }, unstaged: {} });
    const second = await makeRepository('second', { staged: { 'src/cart.ts': 'export const second = 2;\n' }, unstaged: {} });
    first.inputBox.value = '';
    await vscode.window.showTextDocument(vscode.Uri.joinPath(second.rootUri, 'src', 'price.ts'));
    const outcome = await vscode.commands.executeCommand<CommitMessageOutcome>('stratus.generateCommitMessage');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.equal(outcome.status, 'written', JSON.stringify(outcome));
    assert.equal(outcome.repository, second.rootUri.fsPath);
    assert.match(second.inputBox.value, /export const second = 2;/);
    assert.equal(first.inputBox.value, '');
  });

  it('a second press while the message is being written does not start another request', async () => {
    const repository = await makeRepository('twice', { staged: { 'src/cart.ts': 'export const twice = 2;\n' }, unstaged: {} });
    await control('/latency', { ms: 300, pathPrefix: '/v1/chat/completions' });
    const before = await lastSeq();
    const first = vscode.commands.executeCommand<CommitMessageOutcome>('stratus.generateCommitMessage', sourceControlOf(repository));
    await eventually(async () => ((await requests('/v1/chat/completions')).some((r) => r.seq > before) ? true : undefined), 'the first request to reach the sandbox');
    const second = await vscode.commands.executeCommand<CommitMessageOutcome>('stratus.generateCommitMessage', sourceControlOf(repository));
    assert.equal(second.status, 'notStarted');
    assert.equal((await first).status, 'written');
    assert.equal((await requests('/v1/chat/completions')).filter((r) => r.seq > before).length, 1);
    assert.match(repository.inputBox.value, /export const twice = 2;/);
  });

  it('keeps the message the person types while the answer is on its way, and stops the request (issue 31, item 5)', async () => {
    const repository = await makeRepository('typed', { staged: { 'src/cart.ts': 'export const typed = 2;\n' }, unstaged: {} });
    repository.inputBox.value = '';
    await control('/latency', { ms: 800, pathPrefix: '/v1/chat/completions' });
    const before = await lastSeq();
    const running = vscode.commands.executeCommand<CommitMessageOutcome>('stratus.generateCommitMessage', sourceControlOf(repository));
    await eventually(async () => ((await requests('/v1/chat/completions')).some((r) => r.seq > before) ? true : undefined), 'the request to reach the sandbox');
    repository.inputBox.value = 'fix: my own message';
    const outcome = await running;
    assert.equal(outcome.status, 'cancelled');
    assert.equal(repository.inputBox.value, 'fix: my own message');
    assert.equal(outcome.message, 'fix: my own message');
  });

  it('reads a staged diff far larger than the prompt only as far as it can be sent (issue 31, item 8)', async () => {
    const huge = 'export const row = "a line of a very large table of constants";\n'.repeat(150_000);
    const repository = await makeRepository('huge', { staged: { 'src/table.ts': huge, 'src/cart.ts': 'export const small = 2;\n' }, unstaged: {} });
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<CommitMessageOutcome>('stratus.generateCommitMessage', sourceControlOf(repository));
    assert.equal(outcome.status, 'written', outcome.error);
    const sent = (await requests('/v1/chat/completions')).filter((r) => r.seq > before);
    assert.equal(sent.length, 1);
    assert.match(repository.inputBox.value, /### src\/table\.ts \(added, \+150000 -0\)/);
    assert.match(repository.inputBox.value, /export const small = 2;/);
    assert.match(outcome.notice ?? '', /summarised per file: 1 shortened/);
  });

  it('with nothing to describe, says so, sends nothing and keeps the input box', async () => {
    const repository = await makeRepository('clean', { staged: {}, unstaged: {} });
    repository.inputBox.value = 'my own words';
    const before = await lastSeq();
    const outcome = await vscode.commands.executeCommand<CommitMessageOutcome>('stratus.generateCommitMessage', sourceControlOf(repository));
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.error ?? '', /Cannot write the commit message: no changes to describe/);
    assert.equal(repository.inputBox.value, 'my own words');
    assert.equal((await requests('/v1/chat/completions')).filter((r) => r.seq > before).length, 0);
  });
});
