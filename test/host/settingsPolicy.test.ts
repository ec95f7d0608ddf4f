import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readInlineSettings, setEnabled } from '../../src/features/inlineCompletion/settings';
import { stratusConfiguration } from '../../src/platform/settings';

// Issue 40 item 15, through VS Code's own inspect(): a cloned repository's settings may only make
// Stratus send less or ask more.
describe('settings: a workspace may only make Stratus send less or ask more', function () {
  this.timeout(30_000);

  it("a workspace's 1e12 review.confirmAboveTokens is ignored (the default, then the user's value, stays in force)", async () => {
    const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus');
    await config().update('review.confirmAboveTokens', 1e12, vscode.ConfigurationTarget.Workspace);
    try {
      assert.equal(config().get('review.confirmAboveTokens'), 1e12, "VS Code's own reading takes the workspace's value");
      assert.equal(stratusConfiguration('stratus').get<number>('review.confirmAboveTokens', 40_000), 40_000);
      await config().update('review.confirmAboveTokens', 90_000, vscode.ConfigurationTarget.Global);
      assert.equal(stratusConfiguration('stratus').get<number>('review.confirmAboveTokens', 40_000), 90_000);
      await config().update('review.confirmAboveTokens', 2_000, vscode.ConfigurationTarget.Workspace);
      assert.equal(stratusConfiguration('stratus').get<number>('review.confirmAboveTokens', 40_000), 2_000, 'a lower threshold asks more: it counts');
    } finally {
      for (const target of [vscode.ConfigurationTarget.Workspace, vscode.ConfigurationTarget.Global]) await config().update('review.confirmAboveTokens', undefined, target);
    }
  });

  it("a workspace's true for completion.inline.enabled is ignored against the user's false; the toggle then turns it on in the user's settings", async () => {
    const document = await vscode.workspace.openTextDocument({ content: 'const policy = ', language: 'typescript' });
    const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('stratus.completion.inline', document);
    await config().update('enabled', false, vscode.ConfigurationTarget.Global);
    await config().update('enabled', true, vscode.ConfigurationTarget.Workspace);
    try {
      assert.equal(config().get('enabled'), true, "VS Code's own reading takes the workspace's value");
      assert.equal(readInlineSettings(document).enabled, false, "the user's false is in force");
      await setEnabled(true, document);
      assert.equal(readInlineSettings(document).enabled, true, 'the toggle does what it says');
      assert.equal(config().inspect('enabled')?.globalValue, true, "written in the user's settings");
    } finally {
      for (const target of [vscode.ConfigurationTarget.Workspace, vscode.ConfigurationTarget.Global]) await config().update('enabled', undefined, target);
    }
  });
});
