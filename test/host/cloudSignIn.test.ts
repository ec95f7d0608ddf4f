// Issue 24: the chat's cloud tools sign in from the stored PAT on first use, in a window where the
// Cloud view was never shown; one sign-in whoever asks first.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Redactor } from '../../src/core/http/redact';
import { silentLogger } from '../../src/core/log';
import { DescribeResourceTool, ListResourcesTool, NotSignedInFailure } from '../../src/features/tools/cloudTools';
import { ConsoleConnection } from '../../src/services/consoleConnection';
import { SecretKeys, SecretStore } from '../../src/platform/secrets';
import { memorySecrets } from './fakes';
import { control, requests, sandbox } from './sandbox';

const AUTH_PATH = '/api/iam/v2/auth/personal_access_token';

const token = (): vscode.CancellationToken => new vscode.CancellationTokenSource().token;
const text = (result: vscode.LanguageModelToolResult): string =>
  result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
const invokeOptions = <T>(input: T): vscode.LanguageModelToolInvocationOptions<T> => ({ input, toolInvocationToken: undefined });

async function signInRequests(): Promise<number> {
  return (await requests(AUTH_PATH)).filter((r) => r.method === 'POST').length;
}

describe('cloud sign-in on first use: the chat\'s cloud tools in a window whose Cloud view was never shown', function () {
  this.timeout(60_000);
  const disposables: vscode.Disposable[] = [];

  /** A new window's console connection: a PAT in the secret store (or none), nothing signed in yet. */
  function freshWindow(pat: { id: string; secret: string } | undefined): ConsoleConnection {
    const values = new Map<string, string>();
    if (pat) {
      values.set(SecretKeys.patId, pat.id);
      values.set(SecretKeys.patSecret, pat.secret);
    }
    const connection = new ConsoleConnection(new SecretStore(memorySecrets(values), new Redactor()), silentLogger);
    disposables.push(connection);
    return connection;
  }

  beforeEach(async () => {
    await control('/reset', {});
    const cleared = await fetch(`${sandbox().console}/__sandbox/requests`, { method: 'DELETE' });
    assert.ok(cleared.ok);
  });

  after(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    await control('/reset', {});
  });

  it('"list my VMs" lists them from the stored PAT, without the Cloud view ever shown', async () => {
    const connection = freshWindow({ id: sandbox().patId, secret: sandbox().patSecret });
    assert.equal(connection.state.kind, 'signedOut', 'a fresh window has not signed in');
    const listed = text(await new ListResourcesTool(connection).invoke(invokeOptions({ kind: 'virtualMachines' }), token()));
    assert.match(listed, /virtual machines:\n- /);
    assert.equal(connection.state.kind, 'signedIn');
    assert.equal(await signInRequests(), 1);
  });

  it('tools asking at once share one sign-in', async () => {
    const connection = freshWindow({ id: sandbox().patId, secret: sandbox().patSecret });
    const [first, second] = await Promise.all([
      new ListResourcesTool(connection).invoke(invokeOptions({ kind: 'virtualMachines' }), token()),
      new ListResourcesTool(connection).invoke(invokeOptions({ kind: 'virtualNetworks' }), token()),
      connection.ensureSignedIn(),
    ]);
    assert.match(text(first), /virtual machines:\n- /);
    assert.match(text(second), /virtual networks/);
    const vm = /\(id ([^)]+)\)/.exec(text(first))?.[1];
    assert.ok(vm, text(first));
    assert.match(text(await new DescribeResourceTool(connection).invoke(invokeOptions({ kind: 'virtualMachines', id: vm }), token())), /Power state:/);
    assert.equal(await signInRequests(), 1, 'one PAT exchange for every consumer');
  });

  it('without a stored PAT, or with one the console rejected, the tool asks the user to sign in and does not retry by itself', async () => {
    const none = freshWindow(undefined);
    await assert.rejects(Promise.resolve(new ListResourcesTool(none).invoke(invokeOptions({ kind: 'virtualMachines' }), token())), (e: unknown) => e instanceof NotSignedInFailure && /not signed in/.test(e.message));
    assert.equal(await signInRequests(), 0);

    const rejected = freshWindow({ id: 'sandbox-pat-expired-id', secret: 'sandbox-pat-expired-secret-not-real' });
    for (let i = 0; i < 2; i++) {
      await assert.rejects(Promise.resolve(new ListResourcesTool(rejected).invoke(invokeOptions({ kind: 'virtualMachines' }), token())), (e: unknown) => e instanceof NotSignedInFailure && /rejected/.test(e.message));
    }
    assert.equal(await signInRequests(), 1, 'a rejected PAT is sent once');
  });
});
