// Stratus' language-model tools and the @stratus agent turn, in a real extension host, against
// the sandbox. Tools that ask for confirmation cannot be confirmed without the Chat view, so they
// are invoked directly (their prepareInvocation is checked separately) or through a test invoker.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ToolInvocation, ToolInvoker, ToolOutcome } from '../../src/core/agent';
import { Redactor } from '../../src/core/http/redact';
import { silentLogger } from '../../src/core/log';
import { createHandler } from '../../src/features/chat/handler';
import type { Deps } from '../../src/features/deps';
import { ProposeEditTool, RunCommandTool, RunTaskTool } from '../../src/features/tools/actionTools';
import { offeredTools, runAgentTurn } from '../../src/features/chat/agentTurn';
import { CloudActionTool, DescribeResourceTool, ListResourcesTool } from '../../src/features/tools/cloudTools';
import { ActiveEditorTool, DiagnosticsTool, ListFilesTool, ReadFileTool, SearchTool } from '../../src/features/tools/fileTools';
import { DECLINED_RESULT, VscodeToolInvoker } from '../../src/features/chat/toolInvoker';
import { SIDE_EFFECT_TOOLS, ToolNames } from '../../src/core/agent/toolNames';
import { toolsContext } from '../../src/services/toolsContext';
import { ChatCommandRegistry } from '../../src/platform/chatCommands';
import { ConnectionStatus } from '../../src/services/connectionStatus';
import { ConsoleConnection } from '../../src/services/consoleConnection';
import { InferenceConnection } from '../../src/services/inferenceConnection';
import { SecretKeys, SecretStore } from '../../src/platform/secrets';
import { readSettings } from '../../src/platform/settings';
import { control, eventually, requests, sandbox } from './sandbox';
import { memorySecrets, RecordingStream, trustServices } from './fakes';



const token = (): vscode.CancellationToken => new vscode.CancellationTokenSource().token;
const text = (result: vscode.LanguageModelToolResult | null | undefined): string =>
  (result?.content ?? []).map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
const invokeOptions = <T>(input: T): vscode.LanguageModelToolInvocationOptions<T> => ({ input, toolInvocationToken: undefined });
const prepareOptions = <T>(input: T): vscode.LanguageModelToolInvocationPrepareOptions<T> => ({ input });

function chatRequest(prompt: string): vscode.ChatRequest {
  return { prompt, command: undefined, references: [], toolReferences: [], toolInvocationToken: undefined, model: { vendor: 'stratus', id: 'gpt-oss:120b', maxInputTokens: 100_000 } } as unknown as vscode.ChatRequest;
}

/** Runs Stratus' tools by calling their implementations (no confirmation UI); records what ran. */
class DirectInvoker implements ToolInvoker {
  readonly ran: string[] = [];
  constructor(private readonly tools: Record<string, vscode.LanguageModelTool<unknown>>) {}
  async invoke(invocation: ToolInvocation): Promise<ToolOutcome> {
    this.ran.push(invocation.name);
    const tool = this.tools[invocation.name];
    if (!tool) return { content: `no such tool ${invocation.name}`, isError: true };
    try {
      return { content: text(await tool.invoke(invokeOptions(invocation.input), token())) };
    } catch (error) {
      return { content: `Error: ${(error as Error).message}`, isError: true };
    }
  }
}

type SentBody = { messages: { role: string; content: unknown; tool_call_id?: string }[]; tools?: { function: { name: string } }[] };
async function chatBodiesAfter(seq: number): Promise<SentBody[]> {
  return (await requests('/v1/chat/completions')).filter((r) => r.seq > seq).map((r) => r.body?.json as SentBody);
}
async function lastSeq(): Promise<number> {
  return Math.max(0, ...(await requests('/')).map((r) => r.seq));
}

describe('tools: Stratus language-model tools and the @stratus agent (against the sandbox)', function () {
  this.timeout(60_000);
  let deps: Deps;
  let root: string;
  let outside: string;
  const secrets = new Map<string, string>();
  const disposables: vscode.Disposable[] = [];

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opens a workspace folder');
    root = folder.uri.fsPath;
    outside = mkdtempSync(join(tmpdir(), 'stratus-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'outside-the-workspace\n');
    writeFileSync(join(root, 'notes.txt'), 'alpha line\nbeta line\ngamma: the answer is 42\n');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'escape.txt'));
    symlinkSync(outside, join(root, 'escape-dir'));
    mkdirSync(join(root, '.vscode'), { recursive: true });
    writeFileSync(join(root, '.vscode', 'tasks.json'), JSON.stringify({ version: '2.0.0', tasks: [{ label: 'stratus-echo', type: 'shell', command: 'echo task-says-hello && echo second-line && exit 3' }] }));
    // The task system reads tasks.json through a file watcher.
    await eventually(async () => ((await vscode.tasks.fetchTasks()).some((t) => t.name === 'stratus-echo') ? true : undefined), 'tasks.json to be read', 20_000);

    secrets.set(SecretKeys.inferenceApiKey, sandbox().apiKey);
    secrets.set(SecretKeys.patId, sandbox().patId);
    secrets.set(SecretKeys.patSecret, sandbox().patSecret);
    const redactor = new Redactor();
    const logChannel = vscode.window.createOutputChannel('Stratus tools test', { log: true });
    const store = new SecretStore(memorySecrets(secrets), redactor);
    const inference = new InferenceConnection(store, silentLogger);
    const connectionStatus = new ConnectionStatus();
    const consoleConnection = new ConsoleConnection(store, silentLogger);
    disposables.push(logChannel, inference, connectionStatus, consoleConnection);
    deps = { logger: silentLogger, logChannel, redactor, secrets: store, settings: readSettings, inference, console: consoleConnection, connectionStatus, chatCommands: new ChatCommandRegistry(), ...trustServices() };
    await vscode.workspace.getConfiguration('stratus').update('tools.editPreview', false, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    for (const d of disposables) d.dispose();
    for (const name of ['notes.txt', 'edit-target.txt', 'escape.txt', 'escape-dir', '.vscode', 'created.txt']) rmSync(join(root, name), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    await vscode.workspace.getConfiguration('stratus').update('tools.editPreview', undefined, vscode.ConfigurationTarget.Global);
    await control('/reset', {});
  });

  it('offers @stratus its own tools and VS Code\'s general ones, not those only VS Code\'s agent can drive', () => {
    const names = offeredTools().map((t) => t.name);
    for (const name of Object.values(ToolNames)) assert.ok(names.includes(name), name);
    for (const name of names) assert.ok(!/_internal$|confirmation|^manage_todo_list$|^runSubagent$|^task_complete$/.test(name), `${name} is offered`);
    assert.ok(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n)));
  });

  it('registers every tool in vscode.lm.tools with its schema and tags', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('stratus_'));
    assert.deepEqual(ours.map((t) => t.name).sort(), Object.values(ToolNames).sort());
    for (const tool of ours) {
      assert.ok(tool.tags.includes('stratus'), tool.name);
      assert.equal((tool.inputSchema as { type?: string } | undefined)?.type, 'object', tool.name);
      assert.ok(tool.description.length > 80, `${tool.name} has a description written for models`);
    }
  });

  it('reads a file with numbered lines, and a line range, through vscode.lm.invokeTool (read-only: no confirmation)', async () => {
    const all = text(await vscode.lm.invokeTool(ToolNames.readFile, { input: { path: 'notes.txt' }, toolInvocationToken: undefined }, token()));
    assert.match(all, /^File: notes.txt \(lines 1–4 of 4\)\n1: alpha line\n2: beta line\n3: gamma: the answer is 42/);
    const part = text(await vscode.lm.invokeTool(ToolNames.readFile, { input: { path: 'notes.txt', startLine: 2, endLine: 2 }, toolInvocationToken: undefined }, token()));
    assert.equal(part, 'File: notes.txt (lines 2–2 of 4)\n2: beta line');
  });

  for (const [label, path] of [
    ['path traversal', '../../etc/passwd'],
    ['an absolute path outside', '/etc/passwd'],
    ['a symlink to a file outside', 'escape.txt'],
    ['a file under a symlinked folder outside', 'escape-dir/secret.txt'],
  ] as const) {
    it(`refuses ${label} with a sentence, and reads nothing`, async () => {
      await assert.rejects(
        Promise.resolve(new ReadFileTool().invoke(invokeOptions({ path }))),
        (error: Error) => /outside the workspace|contains "\.\."/.test(error.message) && !error.message.includes('outside-the-workspace'),
      );
    });
  }

  it('refuses an edit through a symlink that escapes, and a traversal in a command argument', async () => {
    await assert.rejects(Promise.resolve(new ProposeEditTool().invoke(invokeOptions({ path: 'escape-dir/new.txt', oldText: '', newText: 'x' }))), /outside the workspace/);
    await assert.rejects(Promise.resolve(new RunCommandTool().invoke(invokeOptions({ command: 'vscode.executeDocumentSymbolProvider', args: [{ $uri: '../x.ts' }] }))), /contains "\.\."/);
  });

  it('lists files by glob and searches the workspace lexically', async () => {
    const listed = text(await new ListFilesTool().invoke(invokeOptions({ glob: '*.txt' }), token()));
    assert.match(listed, /notes\.txt/);
    await assert.rejects(Promise.resolve(new ListFilesTool().invoke(invokeOptions({ glob: '../**' }), token())), /contains "\.\."/);
    const found = text(await new SearchTool(() => toolsContext(deps).search).invoke(invokeOptions({ query: 'answer is 42' }), token()));
    assert.match(found, /notes\.txt\n {2}3: gamma: the answer is 42/);
  });

  it('reports diagnostics and the active editor', async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(root, 'notes.txt')));
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(1, 0, 1, 4);
    const active = text(new ActiveEditorTool().invoke());
    assert.match(active, /File: notes.txt/);
    assert.match(active, /Selection: lines 2–2\n2: beta/);
    const collection = vscode.languages.createDiagnosticCollection('stratus-test');
    disposables.push(collection);
    collection.set(doc.uri, [new vscode.Diagnostic(new vscode.Range(2, 0, 2, 5), 'gamma is suspicious', vscode.DiagnosticSeverity.Warning)]);
    const problems = text(await new DiagnosticsTool().invoke(invokeOptions({ path: 'notes.txt' })));
    assert.equal(problems, '1 problem(s) in notes.txt:\nnotes.txt:3:1 warning: gamma is suspicious');
    assert.equal(text(await new DiagnosticsTool().invoke(invokeOptions({ path: 'notes.txt', severity: 'error' as const }))), 'No problems reported for notes.txt.');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('read-only tools do not ask; side-effect tools confirm naming exactly what will happen', async () => {
    assert.equal(new ReadFileTool().prepareInvocation(prepareOptions({ path: 'notes.txt' })).confirmationMessages, undefined);
    // Except a file named like one that holds credentials: what is read goes to the model.
    const secrets = new ReadFileTool().prepareInvocation(prepareOptions({ path: 'api/.env.local' })).confirmationMessages;
    assert.equal(secrets?.title, 'Read a file that may hold secrets?');
    assert.match(String(secrets?.message), /api\/\.env\.local is named like a file that holds credentials/);
    assert.equal(new ListFilesTool().prepareInvocation(prepareOptions({ glob: '**' })).confirmationMessages, undefined);
    const command = new RunCommandTool().prepareInvocation(prepareOptions({ command: 'workbench.actions.view.problems', args: [1] }));
    assert.match(String((command.confirmationMessages?.message as vscode.MarkdownString).value), /`workbench\.actions\.view\.problems` with these arguments:\n\n```json\n\[\n 1\n\]/);
    const task = await new RunTaskTool().prepareInvocation(prepareOptions({ task: 'stratus-echo' }));
    assert.match((task.confirmationMessages?.message as vscode.MarkdownString).value, /Run the task \*\*stratus\\-echo\*\*:\n\n```\necho task-says-hello/);
    const edit = await new ProposeEditTool().prepareInvocation(prepareOptions({ path: 'notes.txt', oldText: 'beta line', newText: 'BETA' }));
    assert.match((edit.confirmationMessages?.message as vscode.MarkdownString).value, /In \*\*notes\\\.txt\*\*, replace:\n\n```\nbeta line\n```\n\nwith:\n\n```\nBETA/);
    // Nothing with a side effect runs unconfirmed, even what will be refused.
    const refused = new RunCommandTool().prepareInvocation(prepareOptions({ command: 'workbench.action.terminal.new' }));
    assert.match((refused.confirmationMessages?.message as vscode.MarkdownString).value, /will be refused: The command "workbench\\\.action\\\.terminal\\\.new" is not in the allowlist/);
    const missingTask = await new RunTaskTool().prepareInvocation(prepareOptions({ task: 'nope' }));
    assert.ok(missingTask.confirmationMessages);
    assert.deepEqual([...SIDE_EFFECT_TOOLS].sort(), [ToolNames.cloudAction, ToolNames.proposeEdit, ToolNames.runCommand, ToolNames.runTask, ToolNames.createFile, ToolNames.runInTerminal].sort());
  });

  it('runs an allowlisted command with converted arguments; refuses others and argument tricks', async () => {
    const symbols = text(await new RunCommandTool().invoke(invokeOptions({ command: 'vscode.executeDocumentSymbolProvider', args: [{ $uri: 'notes.txt' }] })));
    assert.match(symbols, /^Command vscode\.executeDocumentSymbolProvider ran\./);
    await assert.rejects(Promise.resolve(new RunCommandTool().invoke(invokeOptions({ command: 'workbench.action.terminal.new' }))), /not in the allowlist/);
    await assert.rejects(Promise.resolve(new RunCommandTool().invoke(invokeOptions({ command: 'workbench.actions.view.problems', args: ['command:workbench.action.terminal.new'] }))), /could run another command/);
    // A {"$mid": ...} object would be revived by VS Code into a URI or another object.
    await assert.rejects(Promise.resolve(new RunCommandTool().invoke(invokeOptions({ command: 'vscode.executeDocumentSymbolProvider', args: [{ $mid: 1, scheme: 'file', path: '/etc/passwd' }] }))), /must be plain JSON values/);
  });

  it('runs a task and returns its exit code and the tail of its output', async function () {
    const result = text(await new RunTaskTool().invoke(invokeOptions({ task: 'stratus-echo' }), token()));
    assert.match(result, /^Task stratus-echo failed \(exit code 3\)\.\nOutput \(tail\):\n(.|\n)*task-says-hello\n(.|\n)*second-line/);
    await assert.rejects(Promise.resolve(new RunTaskTool().invoke(invokeOptions({ task: 'nope' }), token())), /no task named "nope"\. Available tasks: .*stratus-echo/);
  });

  it('applies a proposed edit (review preview off) and creates a file; refuses ambiguous or missing text', async () => {
    // Its own file: notes.txt stays as the other tests read it, whatever the order.
    writeFileSync(join(root, 'edit-target.txt'), 'alpha line\nbeta line\ngamma: the answer is 42\n');
    const applied = text(await new ProposeEditTool().invoke(invokeOptions({ path: 'edit-target.txt', oldText: 'beta line', newText: 'BETA line' })));
    assert.match(applied, /The edit to edit-target\.txt was applied/);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(root, 'edit-target.txt')));
    assert.match(doc.getText(), /BETA line/);
    await doc.save();
    await assert.rejects(Promise.resolve(new ProposeEditTool().invoke(invokeOptions({ path: 'edit-target.txt', oldText: 'line', newText: 'x' }))), /occurs 2 times/);
    await assert.rejects(Promise.resolve(new ProposeEditTool().invoke(invokeOptions({ path: 'edit-target.txt', oldText: 'delta', newText: 'x' }))), /was not found/);
    assert.match(text(await new ProposeEditTool().invoke(invokeOptions({ path: 'created.txt', oldText: '', newText: 'new file\n' }))), /created/);
  });

  it('@stratus (real handler, vscode.lm.invokeTool): the model reads a file, gets the result, and the answer references it', async () => {
    const before = await lastSeq();
    const stream = new RecordingStream();
    const result = await createHandler(deps)(chatRequest('plan: stratus_readFile {"path": "notes.txt"}'), { history: [] } as unknown as vscode.ChatContext, stream.asStream(), token());
    assert.match(stream.text, /^Tool result \(stratus_readFile\): File: notes\.txt/);
    assert.match(stream.text, /3: gamma: the answer is 42/);
    assert.equal(stream.references.length, 1);
    assert.equal((stream.references[0] as vscode.Uri).fsPath, join(root, 'notes.txt'));
    const bodies = await chatBodiesAfter(before);
    assert.equal(bodies.length, 2);
    assert.ok(bodies[0]?.tools?.some((t) => t.function.name === ToolNames.cloudAction), 'Stratus tools are offered');
    const metadata = (result ?? {}).metadata as { messages: { role: string }[] };
    assert.deepEqual(metadata.messages.map((m) => m.role), ['assistant', 'tool', 'assistant'], 'every round is kept for the next turn');
  });

  it('@stratus reads a file and runs a task; the final answer carries both results', async () => {
    const invoker = new DirectInvoker({ [ToolNames.readFile]: new ReadFileTool(), [ToolNames.runTask]: new RunTaskTool() } as Record<string, vscode.LanguageModelTool<unknown>>);
    const stream = new RecordingStream();
    const abort = new AbortController();
    await runAgentTurn(deps, {
      request: chatRequest(''), stream: stream.asStream(), signal: abort.signal, maxTokens: undefined, partial: { add: () => undefined }, invoker,
      model: { id: 'gpt-oss:120b', kind: 'chat', created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: 131072 },
      messages: [{ role: 'user', content: 'plan: stratus_readFile {"path": "notes.txt", "startLine": 3, "endLine": 3} ; stratus_runTask {"task": "stratus-echo"}' }],
    });
    assert.deepEqual(invoker.ran, [ToolNames.readFile, ToolNames.runTask]);
    assert.match(stream.text, /Tool result \(stratus_readFile\): File: notes\.txt \(lines 3–3 of 4\)\n3: gamma: the answer is 42/);
    assert.match(stream.text, /Tool result \(stratus_runTask\): Task stratus-echo failed \(exit code 3\)\.\nOutput \(tail\):\n(.|\n)*task-says-hello/);
  });

  it('a side-effect tool the user refuses does nothing, and the model is told so', async () => {
    let ranTask = 0;
    const refusing = new VscodeToolInvoker(undefined, (name, options, t) => {
      if (SIDE_EFFECT_TOOLS.has(name)) return Promise.reject(new vscode.CancellationError());
      ranTask++;
      return vscode.lm.invokeTool(name, options, t);
    });
    const before = await lastSeq();
    const stream = new RecordingStream();
    await runAgentTurn(deps, {
      request: chatRequest(''), stream: stream.asStream(), signal: new AbortController().signal, maxTokens: undefined, partial: { add: () => undefined }, invoker: refusing,
      model: { id: 'gpt-oss:120b', kind: 'chat', created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: 131072 },
      messages: [{ role: 'user', content: 'plan: stratus_proposeEdit {"path": "notes.txt", "oldText": "alpha line", "newText": "HACKED"}' }],
    });
    assert.equal(ranTask, 0);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(root, 'notes.txt')));
    assert.ok(!doc.getText().includes('HACKED'), 'nothing changed');
    const bodies = await chatBodiesAfter(before);
    assert.equal(bodies[1]?.messages.at(-1)?.content, DECLINED_RESULT);
    assert.equal(stream.text, `Tool result (stratus_proposeEdit): ${DECLINED_RESULT}`);
  });

  it('a model without tool support gets no tools, and the user is told why', async () => {
    const before = await lastSeq();
    const stream = new RecordingStream();
    await runAgentTurn(deps, {
      request: chatRequest(''), stream: stream.asStream(), signal: new AbortController().signal, maxTokens: undefined, partial: { add: () => undefined }, invoker: new DirectInvoker({}),
      model: { id: 'qwen3-vl:8b', kind: 'vision', created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: 262144 },
      messages: [{ role: 'user', content: 'plan: stratus_readFile {"path": "notes.txt"}' }],
    });
    assert.match(stream.text, /qwen3-vl:8b is not known to support tool calls.*stratus\.models\.toolCalling/);
    const bodies = await chatBodiesAfter(before);
    assert.equal(bodies.length, 1);
    assert.equal(bodies[0]?.tools, undefined);
  });

  it('a #tool reference in the prompt forces that tool on the first round only', async () => {
    const before = await lastSeq();
    const stream = new RecordingStream();
    const request = { ...chatRequest('*.txt'), toolReferences: [{ name: ToolNames.listFiles, range: undefined }] } as unknown as vscode.ChatRequest;
    await runAgentTurn(deps, {
      request, stream: stream.asStream(), signal: new AbortController().signal, maxTokens: undefined, partial: { add: () => undefined }, invoker: new DirectInvoker({ [ToolNames.listFiles]: new ListFilesTool() } as Record<string, vscode.LanguageModelTool<unknown>>),
      model: { id: 'gpt-oss:120b', kind: 'chat', created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: 131072 },
      messages: [{ role: 'user', content: '*.txt' }],
    });
    const bodies = (await chatBodiesAfter(before)) as Array<SentBody & { tool_choice?: unknown }>;
    assert.deepEqual(bodies[0]?.tool_choice, { type: 'function', function: { name: ToolNames.listFiles } });
    assert.equal(bodies[1]?.tool_choice, 'auto');
    assert.match(stream.text, /Tool result \(stratus_listFiles\): \d+ file\(s\) matching "\*\.txt":\n(.|\n)*notes\.txt/);
  });

  describe('cloud tools', () => {
    before(async () => {
      const state = await deps.console.signIn();
      assert.equal(state.kind, 'signedIn');
    });

    it('lists and describes resources, and powers a VM off; the answer carries the activity\'s final state', async () => {
      const listed = text(await new ListResourcesTool(deps.console).invoke(invokeOptions({ kind: 'virtualMachines' }), token()));
      assert.match(listed, /virtual machines:\n- /);
      const page = await deps.console.client().list('virtualMachines', { limit: 200 });
      const running = page.items.find((vm) => vm.raw.powerState === 'running');
      assert.ok(running, 'the sandbox seeds a running VM');
      const described = text(await new DescribeResourceTool(deps.console).invoke(invokeOptions({ kind: 'virtualMachines', id: running.id }), token()));
      assert.match(described, /Power state: running/);
      assert.match(described, /Actions available now: .*powerOff/);

      const action = new CloudActionTool(deps.console, toolsContext(deps).progress);
      const prepared = await action.prepareInvocation(prepareOptions({ kind: 'virtualMachines', action: 'powerOff', id: running.id }), token());
      // Server text is escaped in the Markdown (web\-001); read as it renders.
      assert.match((prepared.confirmationMessages?.message as vscode.MarkdownString).value.replace(/\\(.)/g, '$1'), new RegExp(`Power Off virtual machine \\*\\*${running.name}\\*\\* \\(id \`${running.id}\`\\)`));

      const invoker = new DirectInvoker({ [ToolNames.cloudAction]: action } as Record<string, vscode.LanguageModelTool<unknown>>);
      const stream = new RecordingStream();
      await runAgentTurn(deps, {
        request: chatRequest(''), stream: stream.asStream(), signal: new AbortController().signal, maxTokens: undefined, partial: { add: () => undefined }, invoker,
        model: { id: 'gpt-oss:120b', kind: 'chat', created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: 131072 },
        messages: [{ role: 'user', content: `plan: stratus_cloudAction {"kind": "virtualMachines", "action": "powerOff", "id": "${running.id}"}` }],
      });
      assert.match(stream.text, new RegExp(`Tool result \\(stratus_cloudAction\\): Power Off ${running.name}: completed\\. Activity \\S+ final state: completed\\.`));
      assert.match(stream.text, /Power state: stopped/);
      assert.ok(stream.progress.some((p) => /Power Off .*: (waiting|running|completed)/.test(p)), `activity progress shown: ${stream.progress.join(' | ')}`);
      const again = await new CloudActionTool(deps.console, toolsContext(deps).progress).invoke(invokeOptions({ kind: 'virtualMachines', action: 'powerOff', id: running.id }), token()).then(text, (e: Error) => e.message);
      assert.match(again, /"powerOff" is not possible on .* now .*Actions available now: .*powerOn/);
    });

    it('a create returns the new resource id; a failed activity returns its reason', async () => {
      const action = new CloudActionTool(deps.console, toolsContext(deps).progress);
      const created = text(await action.invoke(invokeOptions({ kind: 'virtualNetworks', action: 'create', input: { name: 'agent-net' } }), token()));
      const id = /Created id: (\S+)/.exec(created)?.[1];
      assert.ok(id, created);
      const listed = await deps.console.client().list('virtualNetworks', { name: 'agent-net' });
      assert.ok(listed.items.some((n) => n.id === id), 'the created id is the new network');
      await control('/activities/fail', { next: 1, reason: 'quota exceeded' });
      const failed = text(await action.invoke(invokeOptions({ kind: 'virtualNetworks', action: 'create', input: { name: 'agent-net-2' } }), token()));
      assert.match(failed, /FAILED\. Activity \S+ ended in state failed: quota exceeded/);
      await assert.rejects(Promise.resolve(action.invoke(invokeOptions({ kind: 'virtualNetworks', action: 'create', input: {} }), token())), /invalid input: .*Name/);
    });

    it('not signed in: the tool says so and @stratus offers Sign In to Console', async () => {
      // Signed out as "Sign Out of Console" does it, PAT removed: a stored PAT would sign in again on first use.
      secrets.delete(SecretKeys.patId);
      secrets.delete(SecretKeys.patSecret);
      deps.console.signOut();
      const prepared = await new CloudActionTool(deps.console, toolsContext(deps).progress).prepareInvocation(prepareOptions({ kind: 'virtualMachines', action: 'delete', id: 'vm-1' }), token());
      assert.match((prepared.confirmationMessages?.message as vscode.MarkdownString).value, /Run `delete` on virtualMachines `vm-1`/, 'a write is confirmed even when its details cannot be read');
      const invoker = new DirectInvoker({ [ToolNames.listResources]: new ListResourcesTool(deps.console) } as Record<string, vscode.LanguageModelTool<unknown>>);
      const stream = new RecordingStream();
      await runAgentTurn(deps, {
        request: chatRequest(''), stream: stream.asStream(), signal: new AbortController().signal, maxTokens: undefined, partial: { add: () => undefined }, invoker,
        model: { id: 'gpt-oss:120b', kind: 'chat', created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: 131072 },
        messages: [{ role: 'user', content: 'plan: stratus_listResources {"kind": "virtualMachines"}' }],
      });
      try {
        assert.match(stream.text, /not signed in to the cloud console/);
        assert.deepEqual(stream.buttons.map((b) => [b.command, b.title]), [['stratus.signIn', 'Sign In to Console']]);
      } finally {
        // Signed in again, so the other cloud tests pass in any order.
        secrets.set(SecretKeys.patId, sandbox().patId);
        secrets.set(SecretKeys.patSecret, sandbox().patSecret);
        await deps.console.signIn();
      }
    });
  });

  describe('agent mode path', () => {
    before(async () => {
      await vscode.commands.executeCommand('stratus.setApiKey', sandbox().apiKey);
    });
    after(async () => {
      await vscode.commands.executeCommand('stratus.removeApiKey');
    await vscode.commands.executeCommand('stratus.signOutOfConsole');
    });

    it('VS Code\'s agent mode path: a Stratus model streams tool-call parts for Stratus tools', async () => {
      const model = await eventually(async () => (await vscode.lm.selectChatModels({ vendor: 'stratus', id: 'gpt-oss:120b' }))[0], 'the Stratus models in vscode.lm');
      const tools = vscode.lm.tools.filter((t) => t.name.startsWith('stratus_')).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('plan: stratus_readFile {"path": "notes.txt"}')], { tools }, token());
      const calls: vscode.LanguageModelToolCallPart[] = [];
      for await (const part of response.stream) if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
      assert.equal(calls.length, 1);
      assert.equal(calls[0]?.name, ToolNames.readFile);
      const result = await vscode.lm.invokeTool(calls[0].name, { input: calls[0].input, toolInvocationToken: undefined }, token());
      assert.match(text(result), /gamma: the answer is 42/);
    });

    it('VS Code\'s agent mode path: a long conversation on a 16k model is compacted (old tool results shortened), never cut silently nor refused with a 400', async () => {
      const model = await eventually(async () => (await vscode.lm.selectChatModels({ vendor: 'stratus', id: 'qwen2.5-coder:7b' }))[0], 'the 16k Stratus model in vscode.lm');
      await control('/recorded-strings', { maxChars: 200_000 });
      try {
        const messages: vscode.LanguageModelChatMessage[] = [vscode.LanguageModelChatMessage.User('Read the files one by one, marker-first-question-f61.')];
        for (let i = 0; i < 8; i++) {
          messages.push(vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelToolCallPart(`call_lm_${i}`, ToolNames.readFile, { path: `file${i}.txt` })]));
          messages.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(`call_lm_${i}`, [new vscode.LanguageModelTextPart(`File: file${i}.txt\n${'y'.repeat(20_000)}`)])]));
        }
        messages.push(vscode.LanguageModelChatMessage.User('now summarise what you read'));
        const before = Math.max(0, ...(await requests('/v1/chat/completions')).map((r) => r.seq));
        const response = await model.sendRequest(messages, {}, token());
        let answer = '';
        for await (const part of response.text) answer += part;
        assert.match(answer, /now summarise what you read/);
        const sent = (await requests('/v1/chat/completions')).filter((r) => r.seq > before);
        assert.deepEqual(sent.map((r) => r.status), [200], 'one request, accepted: shortening old results was enough (no summary request)');
        const body = sent[0]?.body?.json as { messages: { role: string; content: unknown }[] };
        const results = body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
        assert.equal(results.length, 8, 'no message dropped');
        assert.ok(results.some((r) => /Shortened to save context/.test(r)), 'old results are shortened');
        assert.match(JSON.stringify(body.messages[0]), /marker-first-question-f61/, 'the first question is kept');
      } finally {
        await control('/recorded-strings', { maxChars: 200 });
      }
    });
  });
});
