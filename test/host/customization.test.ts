// Issue 35, items 1-3: prompt files, custom agents and skills, through the real @stratus handler
// (createHandler with the feature's shapers) against the sandbox; what the model was sent is read
// back from the sandbox's request log. Drives the handler directly, so it runs on VS Code 1.104 too.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PromptFile, PromptInput } from '../../src/core/agent/customization';
import { AgentDepth } from '../../src/features/chat/agentDepth';
import { createHandler } from '../../src/features/chat/handler';
import { problemsOf } from '../../src/features/customization/problems';
import { registerChatShapers } from '../../src/features/customization/register';
import type { PromptUi } from '../../src/features/customization/promptShape';
import { ReadSkillTool } from '../../src/features/tools/readSkillTool';
import type { Deps } from '../../src/features/deps';
import type { Located } from '../../src/services/customizations';
import type { TrustFake } from '../../src/services/workspaceTrust';
import { stratus } from './extension';
import { control, eventually, requests, sandbox } from './sandbox';
import { RecordingStream, testDeps } from './fakes';

type SentBody = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };

async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
}
async function sentAfter(seq: number): Promise<SentBody[]> {
  return (await requests('/v1/chat/completions')).filter((r) => r.seq > seq).map((r) => r.body?.json as SentBody);
}
const contentText = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content));
const systemOf = (body: SentBody | undefined): string => contentText(body?.messages[0]?.content);
const lastUserOf = (body: SentBody | undefined): string => contentText([...(body?.messages ?? [])].reverse().find((m) => m.role === 'user')?.content);
const toolNames = (body: SentBody | undefined): string[] => (body?.tools ?? []).map((t) => t.function.name).sort();

function request(prompt: string, command?: string): vscode.ChatRequest {
  return { prompt, command, references: [], toolReferences: [], toolInvocationToken: undefined, model: { vendor: 'stratus', id: 'gpt-oss:120b', maxInputTokens: 100_000 } } as unknown as vscode.ChatRequest;
}
function requestTurn(prompt: string, command?: string): vscode.ChatRequestTurn {
  return Object.assign(Object.create(vscode.ChatRequestTurn.prototype) as vscode.ChatRequestTurn, { prompt, command, participant: 'stratus.chat', references: [], toolReferences: [] });
}
function responseTurn(metadata: unknown): vscode.ChatResponseTurn {
  return Object.assign(Object.create(vscode.ChatResponseTurn.prototype) as vscode.ChatResponseTurn, { participant: 'stratus.chat', response: [], result: { metadata } });
}

/** Answers the prompt UI without dialogs, and records what it was asked. */
class ScriptedUi implements PromptUi {
  readonly asked: string[] = [];
  constructor(private readonly answers: Record<string, string | undefined> = {}) {}
  pick(items: readonly Located<PromptFile>[]): Promise<Located<PromptFile> | undefined> {
    this.asked.push(`pick:${items.map((i) => i.file.name).join(',')}`);
    return Promise.resolve(items.find((i) => i.file.name === this.answers.pick));
  }
  input(input: PromptInput): Promise<string | undefined> {
    this.asked.push(`input:${input.name}:${input.placeholder ?? ''}`);
    return Promise.resolve(this.answers[input.name]);
  }
}

describe('customization: prompt files, custom agents and skills (against the sandbox)', function () {
  this.timeout(120_000);
  let deps: Deps;
  let depth: AgentDepth;
  let root: string;
  let fakes: TrustFake[] = [];
  const disposables: vscode.Disposable[] = [];
  const created = [
    '.github/prompts/host-review.prompt.md',
    '.github/prompts/host-bad.prompt.md',
    '.github/prompts/host-large.prompt.md',
    '.github/prompts/host-hijack.prompt.md',
    '.github/agents/host-reader.agent.md',
    '.github/agents/host-searcher.agent.md',
    '.github/skills/host-skill',
    'custom-notes',
    '.github/prompts/host-attach.prompt.md', '.github/prompts/host-spaced.prompt.md', '.github/prompts/host-files.prompt.md', 'prompt-files', '.github/agents/host-code-reviewer.agent.md', '.github/agents/host-code.agent.md', '.github/agents/host-broken.agent.md', '.github/agents/host-unserved.agent.md',
  ];

  const write = (path: string, text: string): void => {
    const full = join(root, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
  };
  const run = async (req: vscode.ChatRequest, ui: PromptUi, history: ReadonlyArray<vscode.ChatRequestTurn | vscode.ChatResponseTurn> = [], token = new vscode.CancellationTokenSource().token): Promise<{ stream: RecordingStream; result: vscode.ChatResult; sent: SentBody[] }> => {
    const registry = registerChatShapers(deps, ui);
    try {
      const before = await lastSeq();
      const stream = new RecordingStream();
      const result = (await createHandler(deps, depth)(req, { history } as unknown as vscode.ChatContext, stream.asStream(), token)) ?? {};
      return { stream, result, sent: await sentAfter(before) };
    } finally {
      registry.dispose();
    }
  };

  before(() => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opens a workspace folder');
    root = folder.uri.fsPath;
    const built = testDeps('Stratus customization test', sandbox().apiKey);
    deps = built.deps;
    depth = new AgentDepth(deps);
    disposables.push(...built.disposables, depth);
    write('custom-notes/notes.md', 'linked-notes-marker-3f1: the cache keeps 10 entries.\n');
    write('custom-notes/.gitignore', '*.log\n');
    write('custom-notes/build.log', 'ignored-log-marker-8d2\n');
    write('.github/prompts/host-review.prompt.md', [
      '---',
      'description: Review one topic',
      'tools: [read]',
      '---',
      'Review the topic ${input:topic:what to review} with care. Workspace: ${workspaceFolderBasename}.',
      'Context: [the notes](../../custom-notes/notes.md), [a log](../../custom-notes/build.log),',
      '[missing](../../custom-notes/missing.md) and [outside](../../../outside-of-workspace.txt).',
      '',
    ].join('\n'));
    write('.github/agents/host-reader.agent.md', [
      '---',
      'description: Reads and explains, never edits',
      'tools: [read, stratus_getDiagnostics]',
      'handoffs:',
      '  - label: Hand to the writer',
      '    agent: host-writer',
      '    prompt: Write the change.',
      '---',
      'You are the reading agent, marker-agent-91c.',
      '',
    ].join('\n'));
    write('.github/skills/host-skill/SKILL.md', [
      '---',
      'name: host-skill',
      'description: Formats release notes the house way (marker-skill-desc-4a).',
      '---',
      'skill-body-marker-57e: write release notes as a table; see reference.md.',
      '',
    ].join('\n'));
    write('.github/skills/host-skill/reference.md', 'skill-reference-marker-22b\n');
    write('.github/prompts/host-spaced.prompt.md', '---\nname: Host Quick Review\n---\nQuick review marker-quick-5d1 of ${input:first} and ${input:second}.\n');
    write('.github/agents/host-code.agent.md', '---\ndescription: A shorter name that the longer one starts with\n---\nYou are marker-short-agent-0b7.\n');
    write('.github/agents/host-code-reviewer.agent.md', [
      '---',
      'name: Host Code Reviewer',
      'description: Reviews code',
      'handoffs:',
      '  - label: Back to the agent',
      '    agent: agent',
      '    prompt: Apply the review.',
      '  - label: Ask it',
      '    agent: ask',
      '  - label: Plan it',
      '    agent: plan',
      '    prompt: Plan the fixes.',
      '  - label: To the reader',
      '    agent: host-reader',
      '---',
      'You are the code reviewer, marker-reviewer-2c4.',
      '',
    ].join('\n'));
  });
  after(() => {
    for (const fake of fakes) fake.dispose();
    for (const d of disposables) d.dispose();
    for (const path of created) rmSync(join(root, path), { recursive: true, force: true });
    // The folders made here, if nothing else is in them.
    for (const dir of ['.github/prompts', '.github/agents', '.github/skills', '.github']) {
      try {
        rmdirSync(join(root, dir));
      } catch {
        // not empty, or not there
      }
    }
  });
  beforeEach(() => control('/recorded-strings', { maxChars: 200_000 }));
  afterEach(async () => {
    for (const fake of fakes) fake.dispose();
    fakes = [];
    await control('/recorded-strings', { maxChars: 200 });
  });

  it('/prompt <name> topic=value: the body with its variable, the linked file attached, the others each with a line; its tools only', async () => {
    const ui = new ScriptedUi();
    const { stream, result, sent } = await run(request('host-review topic="the cache layer" and mention eviction', 'prompt'), ui);
    assert.equal(result.errorDetails, undefined, stream.text);
    assert.deepEqual(ui.asked, [], 'the value came from the chat line');
    const user = lastUserOf(sent[0]);
    const expectedFolder = (vscode.window.activeTextEditor ? vscode.workspace.getWorkspaceFolder(vscode.window.activeTextEditor.document.uri) : undefined) ?? vscode.workspace.workspaceFolders?.[0];
    assert.ok(user.includes(`Review the topic the cache layer with care. Workspace: ${expectedFolder?.name ?? ''}.`), user);
    assert.match(user, /and mention eviction/);
    assert.match(user, /linked-notes-marker-3f1/, 'the linked file is attached');
    assert.doesNotMatch(user, /ignored-log-marker-8d2/, 'an ignored file is not sent');
    assert.match(stream.text, /Not attached: `\.\.\/\.\.\/custom-notes\/build\.log` \(ignored/);
    assert.match(stream.text, /Not attached: `\.\.\/\.\.\/custom-notes\/missing\.md` \(the file does not exist\)/);
    assert.match(stream.text, /Not attached: `\.\.\/\.\.\/\.\.\/outside-of-workspace\.txt` \(outside the workspace\)/);
    assert.match(stream.text, /Prompt file: \*\*host\\-review\*\*/);
    const offered = toolNames(sent[0]);
    assert.ok(offered.includes('stratus_readFile') && !offered.includes('stratus_proposeEdit') && !offered.includes('stratus_runInTerminal'), offered.join(', '));
    assert.equal((result.metadata as { promptFile?: string }).promptFile, 'host-review');
  });

  it('/prompt <name> --files <glob>: the same job as Run Prompt over Files (sent as a batch once the cost is chosen); clear errors for an unknown prompt, no glob, a glob matching nothing', async () => {
    const { api } = await stratus();
    assert.ok(api.batch);
    await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    write('.github/prompts/host-files.prompt.md', '---\ndescription: headers\n---\nAdd a header comment marker-files-7c2.\n');
    write('prompt-files/a.ts', 'export const a = 1;\n');
    write('prompt-files/b.ts', 'export const b = 2;\n');
    const ui = new ScriptedUi();
    const posts = async (): Promise<number> => (await requests('/v1/batches')).filter((r) => r.method === 'POST').length;
    const before = await posts();

    const unknown = await run(request('no-such-prompt --files prompt-files/*.ts', 'prompt'), ui);
    assert.match(unknown.stream.text, /There is no prompt file named \*\*no\\-such\\-prompt\*\*/);
    const noGlob = await run(request('host-files --files', 'prompt'), ui);
    assert.match(noGlob.stream.text, /Give the files after --files, e\.g\. `\/prompt host-files --files src\/\*\*\/\*\.ts`/);
    assert.ok(noGlob.result.errorDetails);
    const nothing = await run(request('host-files --files no-such-dir/**/*.ts', 'prompt'), ui);
    assert.match(nothing.stream.text, /No workspace file matches no-such-dir\/\*\*\/\*\.ts\./);
    assert.ok(nothing.result.errorDetails);
    assert.equal(await posts(), before, 'nothing sent on an error');
    assert.deepEqual(unknown.sent.concat(noGlob.sent, nothing.sent), [], 'no chat request either');

    api.batch.answerMode('batch');
    try {
      const sent = await run(request('host-files --files prompt-files/*.ts', 'prompt'), ui);
      assert.equal(sent.result.errorDetails, undefined, sent.stream.text);
      const meta = sent.result.metadata as { promptOverFiles?: string; jobId?: string };
      assert.equal(meta.promptOverFiles, 'sent', sent.stream.text);
      assert.match(sent.stream.text, /Sent \*\*host\\-files\*\* over 2 files as a batch \(half price/);
      assert.equal(await posts(), before + 1, 'one batch, the same job as the command');
      const job = api.batch.service.job(meta.jobId ?? '');
      assert.ok(job && job.instruction?.includes('marker-files-7c2') && job.items.length === 2, JSON.stringify(job));
      await api.batch.service.remove(job.id);
    } finally {
      api.batch.answerMode(undefined);
    }
  });

  it('/prompt alone: a pick of the prompt files, then an input box for a value not on the chat line; dismissing it runs nothing', async () => {
    const ui = new ScriptedUi({ pick: 'host-review', topic: 'asked-topic-6b' });
    const { sent } = await run(request('', 'prompt'), ui);
    assert.ok(ui.asked[0]?.startsWith('pick:') && ui.asked[0].includes('host-review'), ui.asked.join(' | '));
    assert.equal(ui.asked[1], 'input:topic:what to review');
    assert.match(lastUserOf(sent[0]), /Review the topic asked-topic-6b with care/);
    const dismissed = await run(request('host-review', 'prompt'), new ScriptedUi());
    assert.equal(dismissed.sent.length, 0, 'nothing is sent');
    assert.match(dismissed.stream.text, /Not run: no value was given for `topic`/);
  });

  it('front-matter errors of a prompt file are diagnostics in the file', async () => {
    write('.github/prompts/host-bad.prompt.md', '---\ndescription: [a, b]\ncolour: blue\n---\nBody ${nope}\n');
    const uri = vscode.Uri.file(join(root, '.github/prompts/host-bad.prompt.md'));
    await vscode.workspace.openTextDocument(uri);
    const diagnostics = await eventually(async () => {
      const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Stratus');
      return found.length >= 3 ? found : undefined;
    }, 'the prompt file\'s diagnostics');
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.severity]).sort(), [[1, vscode.DiagnosticSeverity.Error], [2, vscode.DiagnosticSeverity.Warning], [4, vscode.DiagnosticSeverity.Warning]]);
    assert.ok(diagnostics.some((d) => /colour/.test(d.message)));
  });

  it('a customization file over 256 KB: one warning that it is not read, no check of its text', async () => {
    write('.github/prompts/host-large.prompt.md', `---\ndescription: d\n---\n${'${a}\n'.repeat(60_000)}`);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(join(root, '.github/prompts/host-large.prompt.md')));
    assert.deepEqual(problemsOf(document)?.map((p) => [p.kind, p.line]), [['tooLarge', 0]]);
  });

  it('a skill\'s file list skips links: a committed `docs -> <a folder outside>` lists none of its names', async function () {
    if (process.platform === 'win32') this.skip();
    const outside = mkdtempSync(join(tmpdir(), 'stratus-skill-link-'));
    writeFileSync(join(outside, 'outside-name-71c.txt'), 'x\n');
    const skillDir = join(root, '.github/skills/host-skill');
    symlinkSync(outside, join(skillDir, 'docs'), 'dir');
    symlinkSync(join(outside, 'outside-name-71c.txt'), join(skillDir, 'linked.txt'));
    try {
      const read = await deps.instructions.customizations.readSkillFile('host-skill', ['SKILL.md'], 10_000);
      assert.ok(read.ok, JSON.stringify(read));
      assert.deepEqual(read.files, ['reference.md']);
    } finally {
      unlinkSync(join(skillDir, 'docs'));
      unlinkSync(join(skillDir, 'linked.txt'));
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('the user\'s own prompt file wins over a workspace prompt of the same name (whatever its case)', async () => {
    const own = mkdtempSync(join(tmpdir(), 'stratus-own-prompts-'));
    writeFileSync(join(own, 'host-commit.prompt.md'), '---\ndescription: mine\n---\nMy own commit prompt, marker-own-0d4.\n');
    write('.github/prompts/host-hijack.prompt.md', '---\nname: Host-Commit\ndescription: theirs\n---\nThe repository\'s prompt, marker-hijack-9f3.\n');
    const settings = vscode.workspace.getConfiguration('stratus');
    await settings.update('agent.promptFilesFolder', own, vscode.ConfigurationTarget.Global);
    try {
      const { items } = await deps.instructions.customizations.promptFiles();
      assert.deepEqual(items.filter((i) => i.file.name.toLowerCase() === 'host-commit').map((i) => i.file.description), ['mine']);
      const { stream, sent } = await run(request('host-commit', 'prompt'), new ScriptedUi());
      assert.match(lastUserOf(sent[0]), /marker-own-0d4/, stream.text);
      assert.doesNotMatch(JSON.stringify(sent), /marker-hijack-9f3/);
    } finally {
      await settings.update('agent.promptFilesFolder', undefined, vscode.ConfigurationTarget.Global);
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('the skills list only where the turn offers stratus_readSkill (a custom agent with tools: [search])', async () => {
    write('.github/agents/host-searcher.agent.md', '---\ndescription: Searches only\ntools: [search]\n---\nYou search, marker-searcher-5e0.\n');
    const { stream, sent } = await run(request('host-searcher where is the cache?', 'agent'), new ScriptedUi());
    assert.match(systemOf(sent[0]), /marker-searcher-5e0/, stream.text);
    assert.ok(toolNames(sent[0]).includes('stratus_searchWorkspace') && !toolNames(sent[0]).includes('stratus_readSkill'), toolNames(sent[0]).join(', '));
    assert.doesNotMatch(systemOf(sent[0]), /stratus_readSkill|marker-skill-desc-4a/, 'no skills list naming a tool the turn does not offer');
    const reader = await run(request('host-reader where is the cache?', 'agent'), new ScriptedUi());
    assert.match(systemOf(reader.sent[0]), /- host-skill: Formats release notes/, 'listed where the reader is offered');
  });

  it('/agent <name>: its instructions and tool subset (a tool outside it is not offered), the agent shown, handoff buttons; remembered on the next turn', async () => {
    const { stream, result, sent } = await run(request('host-reader what does the cache do?', 'agent'), new ScriptedUi());
    assert.equal(result.errorDetails, undefined, stream.text);
    assert.match(stream.text, /^_Agent: \*\*host\\-reader\*\*_/);
    assert.match(systemOf(sent[0]), /marker-agent-91c/);
    assert.match(lastUserOf(sent[0]), /^what does the cache do\?$/);
    const offered = toolNames(sent[0]);
    assert.ok(offered.includes('stratus_readFile') && offered.includes('stratus_getDiagnostics'), offered.join(', '));
    for (const outsideSubset of ['stratus_proposeEdit', 'stratus_runInTerminal', 'stratus_searchWorkspace', 'stratus_cloudAction']) assert.ok(!offered.includes(outsideSubset), `${outsideSubset} is not offered`);
    assert.ok(offered.every((n) => ['stratus_readFile', 'stratus_readDocument', 'stratus_readSkill', 'stratus_getActiveEditor', 'stratus_getDiagnostics'].includes(n)), offered.join(', '));
    const metadata = result.metadata as { customAgent?: string; conversationId?: string };
    assert.equal(metadata.customAgent, 'host-reader');
    const handoff = stream.buttons.find((b) => b.title === 'Hand to the writer');
    assert.deepEqual(handoff?.arguments, [{ query: '@stratus /agent host-writer Write the change.', isPartialQuery: true }]);

    const next = await run(request('and the eviction?'), new ScriptedUi(), [requestTurn('host-reader what does the cache do?', 'agent'), responseTurn(metadata)]);
    assert.match(next.stream.text, /^_Agent: \*\*host\\-reader\*\*_/);
    assert.match(systemOf(next.sent[0]), /marker-agent-91c/);
    assert.ok(!toolNames(next.sent[0]).includes('stratus_proposeEdit'), 'the subset holds on the next turn');

    const back = await run(request('default', 'agent'), new ScriptedUi());
    assert.equal(back.sent.length, 0);
    const after = await run(request('plain again'), new ScriptedUi(), [requestTurn('default', 'agent'), responseTurn((back.result.metadata))]);
    assert.doesNotMatch(systemOf(after.sent[0]), /marker-agent-91c/);
    assert.ok(toolNames(after.sent[0]).includes('stratus_proposeEdit'), 'back to every tool');
  });

  it('names with spaces: /agent and /prompt take the longest known name, and a handoff to a built-in agent goes to the default agent or /plan', async () => {
    const { stream, result, sent } = await run(request('host code reviewer is this right?', 'agent'), new ScriptedUi());
    assert.equal(result.errorDetails, undefined, stream.text);
    assert.match(stream.text, /_Agent: \*\*Host Code Reviewer\*\*_/);
    assert.match(systemOf(sent[0]), /marker-reviewer-2c4/);
    assert.doesNotMatch(systemOf(sent[0]), /marker-short-agent-0b7/, 'not host-code, the shorter name it starts with');
    assert.match(lastUserOf(sent[0]), /^is this right\?$/);
    assert.equal((result.metadata as { customAgent?: string }).customAgent, 'Host Code Reviewer');
    const queries = Object.fromEntries(stream.buttons.map((b) => [b.title, (b.arguments?.[0] as { query: string }).query]));
    assert.deepEqual(queries, {
      'Back to the agent': '@stratus /agent default Apply the review.',
      'Ask it': '@stratus /agent default',
      'Plan it': '@stratus /plan Plan the fixes.',
      'To the reader': '@stratus /agent host-reader',
    });
    const short = await run(request('host-code hi', 'agent'), new ScriptedUi());
    assert.match(systemOf(short.sent[0]), /marker-short-agent-0b7/);

    // `/agent default <question>` (the handoff above): the default agent answers and is remembered.
    const handedOff = await run(request('default Apply the review.', 'agent'), new ScriptedUi(), [requestTurn('host code reviewer is this right?', 'agent'), responseTurn(result.metadata)]);
    assert.equal(handedOff.sent.length > 0, true, handedOff.stream.text);
    assert.doesNotMatch(systemOf(handedOff.sent[0]), /marker-reviewer-2c4/);
    assert.match(lastUserOf(handedOff.sent[0]), /^Apply the review\.$/);
    assert.equal((handedOff.result.metadata as { customAgent?: unknown }).customAgent, null);

    const listed = await run(request('', 'agent'), new ScriptedUi());
    const use = listed.stream.buttons.find((b) => b.title === 'Use Host Code Reviewer');
    assert.deepEqual(use?.arguments, [{ query: '@stratus /agent Host Code Reviewer ', isPartialQuery: true }]);

    const prompt = await run(request('host quick review first=one second=two and more', 'prompt'), new ScriptedUi());
    assert.equal(prompt.result.errorDetails, undefined, prompt.stream.text);
    assert.match(lastUserOf(prompt.sent[0]), /Quick review marker-quick-5d1 of one and two\.\s+and more/);
  });

  it('a custom agent\'s model that is not served: one line says so and which model answers', async () => {
    write('.github/agents/host-unserved.agent.md', '---\ndescription: Names a model the service does not have\nmodel: no-such-model-7f\n---\nYou answer.\n');
    const { stream, sent } = await run(request('host-unserved hello', 'agent'), new ScriptedUi());
    assert.ok(sent.length > 0);
    assert.match(stream.text, /The model `no-such-model-7f` named by the custom agent or prompt file is not served: `gpt-oss:120b` answers instead\./);
    const plain = await run(request('host-reader hello', 'agent'), new ScriptedUi());
    assert.doesNotMatch(plain.stream.text, /is not served/);
  });

  it('/agent <name> shows its front-matter errors, as /prompt does', async () => {
    write('.github/agents/host-broken.agent.md', '---\ndescription: Broken\nthis line is not yaml\n---\nBody\n');
    const { stream, sent } = await run(request('host-broken', 'agent'), new ScriptedUi());
    assert.equal(sent.length, 0);
    assert.match(stream.text, /This custom agent has 1 front-matter error\(s\) \(shown in the file\), e\.g\. line 3: Expected/);
  });

  it('prompt-file links into .github/ and to package.json are attached (reading them is not writing them)', async () => {
    const ownPackage = !existsSync(join(root, 'package.json'));
    if (ownPackage) write('package.json', '{ "name": "host-attach-marker-93e" }\n');
    write('.github/instructions/host-style.instructions.md', 'style-marker-71a: two spaces.\n');
    write('.github/prompts/host-attach.prompt.md', 'Check [the style](../instructions/host-style.instructions.md) and [the manifest](../../package.json).\n');
    try {
      const { stream, sent } = await run(request('host-attach', 'prompt'), new ScriptedUi());
      assert.doesNotMatch(stream.text, /Not attached/, stream.text);
      const user = lastUserOf(sent[0]);
      assert.match(user, /style-marker-71a/);
      assert.ok(user.includes(readFileSync(join(root, 'package.json'), 'utf8').trim().slice(0, 30)), user);
    } finally {
      rmSync(join(root, '.github/instructions'), { recursive: true, force: true });
      if (ownPackage) rmSync(join(root, 'package.json'), { force: true });
    }
  });

  it('a shaper that fails is shown like a failed turn; cancelled during an input box, nothing more is asked or sent', async () => {
    const failing = new ScriptedUi();
    failing.input = () => Promise.reject(new Error('the input box failed'));
    const failed = await run(request('host quick review', 'prompt'), failing);
    assert.equal(failed.sent.length, 0);
    assert.ok(failed.result.errorDetails, 'the handler returns the error, it does not reject');
    assert.equal((failed.result.metadata as { error?: boolean }).error, true);

    const source = new vscode.CancellationTokenSource();
    const cancelling = new ScriptedUi({ first: 'one', second: 'two' });
    const input = cancelling.input.bind(cancelling);
    cancelling.input = (asked) => { source.cancel(); return input(asked); };
    const cancelled = await run(request('host quick review', 'prompt'), cancelling, [], source.token);
    assert.deepEqual(cancelling.asked, ['input:first:'], 'the second input is not asked');
    assert.equal(cancelled.sent.length, 0);
  });

  it('/agent alone lists the agents with their descriptions', async () => {
    const { stream, sent } = await run(request('', 'agent'), new ScriptedUi());
    assert.equal(sent.length, 0);
    assert.match(stream.text, /\*\*host\\-reader\*\*: Reads and explains, never edits/);
    assert.ok(stream.buttons.some((b) => b.title === 'Use host-reader'));
  });

  it('a skill: its name and description in the system message, its body only in the tool result after stratus_readSkill', async () => {
    const { stream, sent } = await run(request('plan: stratus_readSkill {"name": "host-skill"}'), new ScriptedUi());
    assert.ok(sent.length >= 2, `${sent.length} request(s)`);
    const first = systemOf(sent[0]);
    assert.match(first, /- host-skill: Formats release notes the house way \(marker-skill-desc-4a\)\./);
    assert.doesNotMatch(JSON.stringify(sent[0]), /skill-body-marker-57e/, 'the body is not in the first request');
    const toolMessage = sent[1]?.messages.find((m) => m.role === 'tool');
    assert.match(contentText(toolMessage?.content), /skill-body-marker-57e/);
    assert.match(contentText(toolMessage?.content), /reference\.md/, 'the files beside SKILL.md are listed');
    assert.match(stream.text, /Tool result \(stratus_readSkill\): Skill: host-skill \(SKILL\.md\)/);
    const tool = new ReadSkillTool(deps.instructions.customizations);
    const invoke = (input: { name: string; path?: string }): Thenable<vscode.LanguageModelToolResult | null | undefined> => Promise.resolve(tool.invoke({ input, toolInvocationToken: undefined }));
    const reference = await invoke({ name: 'host-skill', path: 'reference.md' });
    assert.match(JSON.stringify(reference?.content), /skill-reference-marker-22b/);
    await assert.rejects(Promise.resolve(invoke({ name: 'host-skill', path: '../../agents/host-reader.agent.md' })), /may not leave the skill's folder/);
    await assert.rejects(Promise.resolve(invoke({ name: 'no-such-skill' })), /no skill named "no-such-skill"\. Skills: .*host-skill/);
  });

  it('untrusted: no skill, prompt file or agent is read, and the chat says so once', async () => {
    const { api } = await stratus();
    assert.ok(api.trust, 'the trust test API (ExtensionMode.Test)');
    fakes.push(deps.trust.fake(false), api.trust.fake(false));
    const prompt = await run(request('host-review topic=x', 'prompt'), new ScriptedUi());
    assert.equal(prompt.sent.length, 0);
    assert.match(prompt.stream.text, /This workspace's prompt files, custom agents and skills are not read: it is not trusted\. Your own prompt files/);
    assert.match(prompt.stream.text, /There is no prompt file named \*\*host\\-review\*\*/);
    const agent = await run(request('host-reader hi', 'agent'), new ScriptedUi());
    assert.equal(agent.sent.length, 0);
    assert.match(agent.stream.text, /There is no custom agent named \*\*host\\-reader\*\*/);
    const remembered = await run(request('still there?'), new ScriptedUi(), [requestTurn('host-reader hi', 'agent'), responseTurn({ customAgent: 'host-reader' })]);
    assert.doesNotMatch(systemOf(remembered.sent[0]), /marker-agent-91c/, 'a remembered agent is not read either');
    assert.match(remembered.stream.text, /This workspace's repository instructions .*skills, prompt files and custom agents were not read: it is not trusted/);
    assert.doesNotMatch(JSON.stringify(remembered.sent), /host-skill|marker-skill-desc-4a/, 'no skill in the system message');
    const conversationId = (remembered.result.metadata as { conversationId: string }).conversationId;
    const again = await run(request('and now?'), new ScriptedUi(), [requestTurn('still there?'), responseTurn(remembered.result.metadata)]);
    assert.equal((again.result.metadata as { conversationId: string }).conversationId, conversationId);
    assert.doesNotMatch(again.stream.text, /were not read: it is not trusted/, 'said once per conversation');
    const listAgents = await run(request('', 'agent'), new ScriptedUi());
    assert.match(listAgents.stream.text, /This workspace's custom agents, prompt files and skills are not read: it is not trusted/);
    assert.doesNotMatch(listAgents.stream.text, /has no custom agent/, 'no contradiction after the note');
    const pickUi = new ScriptedUi();
    const listPrompts = await run(request('', 'prompt'), pickUi);
    assert.doesNotMatch(listPrompts.stream.text, /No prompt file found/, 'no contradiction after the note');
    assert.deepEqual(pickUi.asked, []);
    await assert.rejects(Promise.resolve(new ReadSkillTool(deps.instructions.customizations).invoke({ input: { name: 'host-skill' }, toolInvocationToken: undefined })), /not read in Restricted Mode/);
  });
});
