// Issue 31: Workspace Trust at one gate. code-server runs with --disable-workspace-trust (always
// trusted), so these tests fake the extension's gate untrusted (test mode only) and walk every
// contributed tool and command read from package.json: a new one that Restricted Mode does not
// cover fails here. Nothing opens a dialog: while faked, the gate records and answers "no".
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { RESTRICTED_MODE_COMMANDS } from '../../src/features/restrictedMode';
import { ContextCollector } from '../../src/features/inlineCompletion/context';
import { READ_ONLY_TOOLS, SIDE_EFFECT_TOOLS, SIDE_EFFECT_TRUST_ACTIONS, ToolNames } from '../../src/core/agent/toolNames';
import { RunInTerminalTool } from '../../src/features/tools/runInTerminalTool';
import type { TrustFake } from '../../src/services/workspaceTrust';
import { WorkspaceTrustGate } from '../../src/services/workspaceTrust';
import { stratus } from './extension';
import { trustServices } from './fakes';

const G = vscode.ConfigurationTarget.Global;
const RESTRICTED_LINE = /Restricted Mode/;

interface Manifest { contributes: { languageModelTools: { name: string }[]; commands: { command: string }[] } }

async function manifest(): Promise<Manifest> {
  const { extension } = await stratus();
  return JSON.parse(readFileSync(join(extension.extensionPath, 'package.json'), 'utf8')) as Manifest;
}

function messageText(prepared: vscode.PreparedToolInvocation | null | undefined): string {
  const message = prepared?.confirmationMessages?.message;
  return typeof message === 'string' ? message : (message?.value ?? '');
}

describe('Restricted Mode: one trust gate for every tool and command (issue 31)', function () {
  this.timeout(60_000);
  let root = '';
  let fake: TrustFake | undefined;
  const cleanup: string[] = [];

  before(() => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opens a workspace folder');
    root = folder.uri.fsPath;
  });
  afterEach(async () => {
    fake?.dispose();
    fake = undefined;
    for (const path of cleanup.splice(0)) rmSync(join(root, path), { recursive: true, force: true });
    await vscode.workspace.getConfiguration('stratus').update('agent.autoApproveCommands', undefined, G);
  });

  it('every contributed tool is either a side-effect tool behind the gate or declared read-only with a reason', async () => {
    const contributed = (await manifest()).contributes.languageModelTools.map((t) => t.name).sort();
    assert.deepEqual(Object.keys(SIDE_EFFECT_TRUST_ACTIONS).sort(), [...SIDE_EFFECT_TOOLS].sort(), 'the side-effect tools and their trust actions agree');
    for (const name of contributed) {
      const sideEffect = SIDE_EFFECT_TRUST_ACTIONS[name] !== undefined;
      const readOnly = READ_ONLY_TOOLS[name];
      assert.ok(sideEffect !== (readOnly !== undefined), `${name}: exactly one of SIDE_EFFECT_TRUST_ACTIONS and READ_ONLY_TOOLS (src/core/agent/toolNames.ts)`);
      if (readOnly !== undefined) assert.ok(readOnly.length > 10, `${name}: a reason`);
    }
    assert.deepEqual([...Object.keys(SIDE_EFFECT_TRUST_ACTIONS), ...Object.keys(READ_ONLY_TOOLS)].sort(), contributed, 'no stale tool in the tables');
  });

  it('untrusted, each side-effect tool asks with the Restricted Mode line, even an auto-approved command', async () => {
    const { api } = await stratus();
    assert.ok(api.trust, 'the trust test API (ExtensionMode.Test)');
    writeFileSync(join(root, 'restricted-target.txt'), 'alpha\n');
    cleanup.push('restricted-target.txt');
    // The user's own rule would approve this command in a trusted workspace.
    await vscode.workspace.getConfiguration('stratus').update('agent.autoApproveCommands', ['echo'], G);
    const inputs: Record<string, object> = {
      [ToolNames.runCommand]: { command: 'workbench.action.terminal.new', args: [] },
      [ToolNames.runTask]: { task: 'build' },
      [ToolNames.runInTerminal]: { command: 'echo restricted' },
      [ToolNames.proposeEdit]: { path: 'restricted-target.txt', oldText: 'alpha', newText: 'beta' },
      [ToolNames.createFile]: { path: 'restricted-new.txt', content: 'x' },
      [ToolNames.cloudAction]: { kind: 'noSuchKind', action: 'delete', id: 'vm-1' },
    };
    const trustedTerminal = await api.trust.tools.get(ToolNames.runInTerminal)?.prepareInvocation?.({ input: inputs[ToolNames.runInTerminal] as never }, new vscode.CancellationTokenSource().token);
    assert.equal(trustedTerminal?.confirmationMessages, undefined, 'trusted, the user\'s rule approves echo');
    fake = api.trust.fake(false);
    for (const name of SIDE_EFFECT_TOOLS) {
      const tool = api.trust.tools.get(name);
      const input = inputs[name];
      assert.ok(tool && input, `${name}: registered, with a sample input here`);
      const prepared = await tool.prepareInvocation?.({ input: input as never }, new vscode.CancellationTokenSource().token);
      assert.ok(prepared?.confirmationMessages, `${name} asks`);
      assert.match(messageText(prepared), RESTRICTED_LINE, `${name}: the confirmation says why`);
      assert.ok(fake.records.some((r) => r.source === name && r.verdict === 'confirm'), `${name} went through the gate`);
    }
  });

  it('runInTerminal itself never auto-approves in Restricted Mode, whatever the user\'s rules (item 1)', async () => {
    await vscode.workspace.getConfiguration('stratus').update('agent.autoApproveCommands', ['npm test', 'echo'], G);
    const gate = new WorkspaceTrustGate();
    try {
      const tool = new RunInTerminalTool(gate);
      const prepare = (command: string): Thenable<vscode.PreparedToolInvocation | null | undefined> => Promise.resolve(tool.prepareInvocation({ input: { command } }));
      assert.equal((await prepare('npm test'))?.confirmationMessages, undefined, 'trusted: the rule approves');
      fake = gate.fake(false);
      for (const command of ['npm test', 'echo hi']) {
        const prepared = await prepare(command);
        // The Restricted Mode line is added where the tool is registered (checked above).
        assert.ok(prepared?.confirmationMessages, `${command} asks in Restricted Mode`);
      }
    } finally {
      gate.dispose();
    }
  });

  it('every contributed command is declared safe with a reason, or refuses through the gate when untrusted', async () => {
    const { api } = await stratus();
    assert.ok(api.trust);
    const contributed = (await manifest()).contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(Object.keys(RESTRICTED_MODE_COMMANDS).sort(), contributed, 'src/features/restrictedMode.ts lists every contributed command, and only those');
    for (const [command, entry] of Object.entries(RESTRICTED_MODE_COMMANDS)) {
      if ('safe' in entry) {
        assert.ok(entry.safe.length > 10, `${command}: a reason`);
        continue;
      }
      fake = api.trust.fake(false);
      await vscode.commands.executeCommand(command);
      const asked = fake.records.filter((r) => r.source === command);
      assert.ok(asked.length > 0 && asked.every((r) => r.action === entry.gated && r.verdict !== 'allow'), `${command} asked the gate first and was refused: ${JSON.stringify(fake.records)}`);
      fake.dispose();
      fake = undefined;
    }
  });

  it('one instructions reader asks the gate: nothing from the repository untrusted, read again once trust is granted (items 3, 4)', async () => {
    const marker = `restricted-marker-${Date.now().toString(36)}`;
    mkdirSync(join(root, 'restricted-probe'), { recursive: true });
    cleanup.push('restricted-probe');
    writeFileSync(join(root, 'restricted-probe', 'AGENTS.md'), `Say ${marker}.\n`);
    writeFileSync(join(root, 'restricted-probe', 'a.ts'), 'export const a = 1;\n');
    const file = vscode.Uri.file(join(root, 'restricted-probe', 'a.ts'));
    const { trust, instructions } = trustServices();
    try {
      fake = trust.fake(false);
      assert.equal(await instructions.forFile(file, 32_768), '', 'Edit with Instruction reads none in Restricted Mode');
      const turn = await instructions.load([file], 32_768);
      assert.ok(turn?.untrustedSkipped && !turn.text.includes(marker), 'the agent turn reads none and says so');
      // Granting trust fires the gate's onDidChange: what Restricted Mode left out is read now.
      fake.dispose();
      fake = undefined;
      assert.match(await instructions.forFile(file, 32_768), new RegExp(marker));
      assert.match((await instructions.load([file], 32_768))?.text ?? '', new RegExp(marker));
    } finally {
      instructions.dispose();
      trust.dispose();
    }
  });

  it('ghost text sends no other file as context in Restricted Mode', async () => {
    const gate = new WorkspaceTrustGate();
    const collector = new ContextCollector(gate);
    try {
      const untitled = vscode.Uri.parse('untitled:restricted-context.ts');
      assert.equal(await collector.mayContribute(untitled), true, 'trusted: an untitled buffer may be context');
      fake = gate.fake(false);
      assert.equal(await collector.mayContribute(untitled), false);
      const document = await vscode.workspace.openTextDocument({ language: 'typescript', content: 'const x = 1;\n' });
      assert.deepEqual(await collector.collect(document), []);
    } finally {
      collector.dispose();
      gate.dispose();
    }
  });
});
