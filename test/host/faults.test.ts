// The fault matrix's host tier (issue 22): a few cells through the real extension host, asserting
// what the user sees: the @stratus participant's answer, error and buttons, the Cloud view's tree
// items, and every notification; then the secrets sweep over all of it and the extension's log.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { createInferenceClient, type InferenceClient } from '../../src/core/inference';
import { silentLogger } from '../../src/core/log';
import { createHandler } from '../../src/features/chat/handler';
import type { TurnMetadata } from '../../src/features/chat/history';
import type { Deps } from '../../src/features/deps';
import { InferenceConnection } from '../../src/services/inferenceConnection';
import { stratus } from './extension';
import { RecordingStream, testDeps } from './fakes';
import { control, requests, sandbox } from './sandbox';

interface Node { type: string; kind?: { id: string }; item?: { id: string; name: string }; text?: string; detail?: string; severity?: string }

const CHAT = '/v1/chat/completions';
const VMS = '/api/compute/v1/virtual-machines';

/** Everything shown to the user during this suite, for the secrets sweep at the end. */
const shown: string[] = [];

/** Records every notification (answering none), as the user would see them. */
function recordNotifications(): { restore(): void } {
  const win = vscode.window as unknown as Record<string, unknown>;
  const names = ['showErrorMessage', 'showWarningMessage', 'showInformationMessage'] as const;
  const originals = names.map((n) => win[n]);
  for (const name of names) {
    win[name] = (message: string, ...items: unknown[]): Promise<undefined> => {
      shown.push(`${name}: ${message} [${items.map((i) => (typeof i === 'string' ? i : (i as { title?: string }).title ?? '')).join(', ')}]`);
      return Promise.resolve(undefined);
    };
  }
  return { restore: () => names.forEach((n, i) => (win[n] = originals[i])) };
}

/** The inference connection with a short idle timeout, so a stall ends within the test. */
class ShortIdleConnection extends InferenceConnection {
  private client_: InferenceClient | undefined;
  override client(): InferenceClient {
    this.client_ ??= createInferenceClient({ baseUrl: sandbox().inference, apiKey: () => Promise.resolve(sandbox().apiKey), timeouts: { idleMs: 400 } });
    return this.client_;
  }
  override dispose(): void {
    void this.client_?.close();
    super.dispose();
  }
}

function request(prompt: string): vscode.ChatRequest {
  return { prompt, command: undefined, references: [], toolReferences: [], model: { vendor: 'stratus', id: 'gpt-oss:120b', maxInputTokens: 100_000 } } as unknown as vscode.ChatRequest;
}

async function ask(deps: Deps, prompt: string): Promise<{ stream: RecordingStream; result: vscode.ChatResult }> {
  const stream = new RecordingStream();
  const result = (await createHandler(deps)(request(prompt), { history: [] } as unknown as vscode.ChatContext, stream.asStream(), new vscode.CancellationTokenSource().token)) ?? {};
  shown.push(stream.text, result.errorDetails?.message ?? '', JSON.stringify(stream.buttons), JSON.stringify(result.metadata ?? {}));
  return { stream, result };
}

async function tree(): Promise<vscode.TreeDataProvider<unknown>> {
  return (await stratus()).api.views.resources;
}

async function children(node?: Node): Promise<Node[]> {
  const nodes = ((await (await tree()).getChildren(node)) ?? []) as Node[];
  for (const n of nodes) shown.push(`${n.text ?? ''} ${n.detail ?? ''} ${n.item?.name ?? ''}`);
  return nodes;
}

async function vmChildren(): Promise<Node[]> {
  const vm = (await children()).find((n) => n.type === 'kind' && n.kind?.id === 'virtualMachines');
  assert.ok(vm, 'the virtual machines node');
  return children(vm);
}

async function signedIn(): Promise<void> {
  const { api } = await stratus();
  assert.equal(await vscode.commands.executeCommand('stratus.signIn', { id: sandbox().patId, secret: sandbox().patSecret }), true);
  assert.equal(api.views.consoleState(), 'signedIn');
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

/** Forms a secret takes when echoed or encoded (the unit sweep's oracle covers more). */
function forms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url')];
}

describe('faults through the extension host: what the user sees', function () {
  this.timeout(60_000);
  let deps: Deps;
  const disposables: vscode.Disposable[] = [];
  let notifications: { restore(): void };

  before(() => {
    const made = testDeps('Stratus faults test', sandbox().apiKey);
    deps = made.deps;
    disposables.push(...made.disposables);
    notifications = recordNotifications();
  });
  after(async () => {
    notifications.restore();
    for (const d of disposables) d.dispose();
    await control('/reset', {});
  });
  beforeEach(() => control('/reset', {}));

  describe('the @stratus participant', () => {
    it('401 on the API key: "rejected (401)" and a Set API Key button, nothing answered', async () => {
      await control('/burst', { status: 401, count: 5, pathPrefix: CHAT });
      const { stream, result } = await ask(deps, 'hello');
      assert.match(result.errorDetails?.message ?? '', /API key was rejected \(401\)/);
      assert.ok(stream.buttons.some((b) => b.command === 'stratus.setApiKey'), JSON.stringify(stream.buttons));
      assert.equal((await requests(CHAT)).length, 1, 'a rejected key is not retried');
    });

    it('429 with Retry-After 1: waits, retries once, and answers', async () => {
      await control('/burst', { status: 429, count: 1, retryAfterSeconds: 1, pathPrefix: CHAT });
      const { stream, result } = await ask(deps, 'third question');
      assert.equal(result.errorDetails, undefined);
      assert.match(stream.text, /third question/);
      assert.equal((await requests(CHAT)).length, 2);
    });

    it('a 503 HTML page from a proxy: retried once (a billed request), then a 503 error without the page, with Retry', async () => {
      await control('/burst', { status: 503, count: 10, html: true, pathPrefix: CHAT });
      const { stream, result } = await ask(deps, 'hello');
      const message = result.errorDetails?.message ?? '';
      assert.match(message, /The service failed \(503\)/);
      assert.doesNotMatch(`${message} ${stream.text}`, /<html|<body|nginx/i);
      assert.ok(stream.buttons.some((b) => b.command === 'stratus.retryChat'), JSON.stringify(stream.buttons));
      assert.equal((await requests(CHAT)).length, 2, 'two attempts in all: a billed request is sent again at most once');
    });

    it('a stall after text: the partial answer is kept and marked incomplete', async () => {
      const connection = new ShortIdleConnection(deps.secrets, silentLogger);
      disposables.push(connection);
      await control('/stream-fault', { kind: 'stall', afterChunks: 4, pathPrefix: CHAT });
      const { stream, result } = await ask({ ...deps, inference: connection }, 'long 50');
      assert.equal((result.metadata as TurnMetadata).incomplete, 'stalled');
      assert.match(stream.text, /^1 2 3 \n\n_\(Incomplete answer: it stopped arriving/);
    });
  });

  describe('the Cloud view', () => {
    it('a 503 HTML page on a list: an error item with the status and Retry; Retry after recovery lists the VMs, still signed in', async () => {
      await signedIn();
      await control('/burst', { status: 503, count: 10, html: true, pathPrefix: VMS });
      const failed = await vmChildren();
      const error = failed.find((n) => n.type === 'message' && n.severity === 'error');
      assert.ok(error, JSON.stringify(failed));
      assert.match(error.text ?? '', /Could not list/);
      assert.match(error.detail ?? '', /503/);
      assert.doesNotMatch(`${error.text} ${error.detail}`, /<html|<body|nginx/i);
      const item = (await tree()).getTreeItem(error as never) as vscode.TreeItem;
      assert.equal(item.command?.command, 'stratus.resources.retry');
      await control('/reset', {});
      await vscode.commands.executeCommand('stratus.resources.retry', 'virtualMachines');
      const vms = (await vmChildren()).filter((n) => n.type === 'resource');
      assert.ok(vms.length > 0, 'the list is back');
      assert.equal((await stratus()).api.views.consoleState(), 'signedIn');
    });

    it('429 then a token expiry: the list comes, no error item and no notification', async () => {
      await signedIn();
      const before = shown.length;
      await control('/expire-tokens', {});
      await control('/burst', { status: 429, count: 1, retryAfterSeconds: 1, pathPrefix: VMS });
      const vms = await vmChildren();
      assert.ok(vms.some((n) => n.type === 'resource'), JSON.stringify(vms));
      assert.ok(!vms.some((n) => n.severity === 'error'));
      assert.deepEqual(shown.slice(before).filter((s) => s.startsWith('show')), [], 'no notification');
    });

    it('403 on a list: "Permission denied (403)" in the error item', async () => {
      await signedIn();
      await control('/burst', { status: 403, count: 10, pathPrefix: VMS });
      const error = (await vmChildren()).find((n) => n.severity === 'error');
      assert.match(error?.detail ?? '', /Permission denied \(403\)/);
    });
  });

  describe('secrets sweep', () => {
    // Self-contained (it makes its own failures), so it holds alone and in any order; what the
    // other tests showed is scanned too when they ran first.
    it('no API key, PAT id or secret (nor their encodings) and no JWT in anything shown or in the extension log', async () => {
      await control('/burst', { status: 401, count: 5, pathPrefix: CHAT });
      await ask(deps, 'hello');
      await signedIn();
      await control('/expire-tokens', {});
      await control('/burst', { status: 503, count: 10, html: true, pathPrefix: VMS });
      await vmChildren();
      const { api } = await stratus();
      const logs = filesUnder(api.logDirectory).map((f) => readFileSync(f, 'utf8'));
      assert.ok(logs.join('').length > 0, 'the extension wrote a log');
      const texts = [...shown, ...logs];
      const needles = [...forms(sandbox().apiKey), ...forms(sandbox().patId), ...forms(sandbox().patSecret)];
      const leaks = texts.flatMap((t) => needles.filter((n) => t.includes(n)).map((n) => `${n} in ${t.slice(0, 120)}`));
      assert.deepEqual(leaks, []);
      const jwts = texts.flatMap((t) => t.match(/eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g) ?? []);
      assert.deepEqual(jwts, [], 'no JWT');
    });
  });
});
