import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CancelledError, NetworkError } from '../../src/core/errors';
import { chatErrorButtons, showError, showPresentedError } from '../../src/platform/errorNotification';
import { stratus } from './extension';
import { sandboxConfigured } from './sandbox';

type Shown = { kind: 'error' | 'warning'; message: string; titles: string[] };

/**
 * Replaces `vscode.window.showErrorMessage` and `showWarningMessage` (the extension shares this
 * API object) with a recorder that answers with the button titled `answer`, as a person would.
 */
function answerNotifications(answer: string | undefined): { shown: Shown[]; restore(): void } {
  const win = vscode.window as unknown as Record<string, unknown>;
  const originals = { showErrorMessage: win.showErrorMessage, showWarningMessage: win.showWarningMessage };
  const shown: Shown[] = [];
  const fake = (kind: Shown['kind']) => (message: string, ...items: (vscode.MessageItem | string)[]): Promise<vscode.MessageItem | string | undefined> => {
    const titles = items.map((item) => (typeof item === 'string' ? item : item.title));
    shown.push({ kind, message, titles });
    return Promise.resolve(items.find((item) => (typeof item === 'string' ? item : item.title) === answer));
  };
  win.showErrorMessage = fake('error');
  win.showWarningMessage = fake('warning');
  return {
    shown,
    restore: () => {
      win.showErrorMessage = originals.showErrorMessage;
      win.showWarningMessage = originals.showWarningMessage;
    },
  };
}

/** A log channel that counts how often it was shown, and how. */
function fakeLog(): { log: { show(preserveFocus?: boolean): void }; shows: (boolean | undefined)[] } {
  const shows: (boolean | undefined)[] = [];
  return { log: { show: (preserveFocus) => void shows.push(preserveFocus) }, shows };
}

describe('error surface: one notification, one set of buttons', function () {
  this.timeout(30_000);

  it('shows a typed error with its actions as buttons, and "Show Log" shows the log channel', async () => {
    const notifications = answerNotifications('Show Log');
    const { log, shows } = fakeLog();
    let retried = 0;
    try {
      const chosen = await showError(new NetworkError('connect ECONNREFUSED', 'ECONNREFUSED'), { log, prefix: 'Cannot list models.', on: { retry: () => void retried++ } });
      assert.equal(chosen, 'showLog');
    } finally {
      notifications.restore();
    }
    assert.equal(notifications.shown.length, 1);
    const [shown] = notifications.shown;
    assert.equal(shown?.kind, 'error');
    assert.match(shown?.message ?? '', /^Stratus: Cannot list models\. Cannot reach the service \(ECONNREFUSED\)\./);
    assert.deepEqual(shown?.titles, ['Open Settings', 'Retry', 'Show Log']);
    assert.deepEqual(shows, [true], 'the log channel was shown once, keeping the focus where it was');
    assert.equal(retried, 0);
  });

  it('offers Retry only with a retry, runs it when chosen, and says nothing for a cancellation', async () => {
    const notifications = answerNotifications('Retry');
    const { log, shows } = fakeLog();
    let retried = 0;
    try {
      await showError(new NetworkError('down', 'ECONNRESET'), { log });
      assert.equal(await showError(new NetworkError('down', 'ECONNRESET'), { log, on: { retry: () => void retried++ } }), 'retry');
      assert.equal(await showError(new CancelledError(), { log }), undefined);
    } finally {
      notifications.restore();
    }
    assert.deepEqual(notifications.shown.map((s) => s.titles), [['Open Settings', 'Show Log'], ['Open Settings', 'Retry', 'Show Log']]);
    assert.equal(retried, 1);
    assert.deepEqual(shows, []);
  });

  it("puts a feature's own buttons first, as a warning when asked, and resolves to the chosen one", async () => {
    const notifications = answerNotifications('Send Again...');
    const { log } = fakeLog();
    const ran: string[] = [];
    try {
      const chosen = await showPresentedError({ message: 'unused', actions: ['showLog'] }, {
        log,
        text: 'Stratus: "Create VM" may or may not have been applied.',
        severity: 'warning',
        extra: [
          { id: 'openActivities', title: 'Open Activities', run: () => ran.push('openActivities') },
          { id: 'sendAgain', title: 'Send Again...', run: () => ran.push('sendAgain') },
        ],
      });
      assert.equal(chosen, 'sendAgain');
    } finally {
      notifications.restore();
    }
    assert.deepEqual(notifications.shown, [{ kind: 'warning', message: 'Stratus: "Create VM" may or may not have been applied.', titles: ['Open Activities', 'Send Again...', 'Show Log'] }]);
    assert.deepEqual(ran, ['sendAgain']);
  });

  it('gives a chat answer the same titles, with the commands of the actions', () => {
    const buttons: vscode.Command[] = [];
    const stream = { button: (command: vscode.Command) => void buttons.push(command) } as unknown as vscode.ChatResponseStream;
    chatErrorButtons(stream, ['openSettings', 'retry', 'showLog'], { commands: { retry: { command: 'stratus.retryChat', arguments: ['hello', 12] } }, retryAfterSeconds: 12 });
    chatErrorButtons(stream, ['retry', 'setApiKey']);
    assert.deepEqual(buttons.map((b) => [b.title, b.command, b.arguments]), [
      ['Open Settings', 'workbench.action.openSettings', ['stratus.inference']],
      ['Retry after 12 s', 'stratus.retryChat', ['hello', 12]],
      ['Show Log', 'stratus.showLog', undefined],
      ['Set Inference API Key', 'stratus.setApiKey', undefined],
    ]);
  });

  it("the extension's own notifications come through it: a rejected console sign-in offers Sign In Again and Show Log", async function () {
    assert.ok(sandboxConfigured(), 'the host harness points Stratus at the sandbox');
    await stratus();
    const notifications = answerNotifications(undefined);
    try {
      assert.equal(await vscode.commands.executeCommand('stratus.signIn', { id: 'pat-error-surface-FAKE-id', secret: 'pat-error-surface-FAKE-secret-0123456789' }), false);
    } finally {
      notifications.restore();
      await vscode.commands.executeCommand('stratus.signOutOfConsole');
    }
    const failed = notifications.shown.find((s) => s.message.startsWith('Stratus: console sign-in failed.'));
    assert.ok(failed, `no sign-in failure among ${JSON.stringify(notifications.shown)}`);
    assert.equal(failed.kind, 'error');
    assert.deepEqual(failed.titles, ['Sign In Again', 'Show Log']);
  });
});
