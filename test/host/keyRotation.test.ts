// Issue 31, item 6: a key rotated while the window was closed. Listing the models at start-up
// fails with 401; the user sets the right key with "Set Inference API Key"; right when the command
// returns (no polling), `vscode.lm` has the Stratus models and one of them answers. Both orders
// of the race: the new key arriving while the 401 listing is still in flight, and after it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { VENDOR } from './extension';
import { control, requests, sandbox } from './sandbox';

/** Not a key the sandbox knows: it answers 401, like a rotated one. */
const ROTATED_KEY = 'sk-host-rotated-FAKE-0123456789';

/** Runs "Set Inference API Key" the way a person does: the password box (stubbed) gives `key`. */
async function setKeyThroughInputBox(key: string): Promise<unknown> {
  const win = vscode.window as unknown as Record<string, unknown>;
  const original = win.showInputBox;
  let asked = 0;
  win.showInputBox = () => {
    asked++;
    return Promise.resolve(key);
  };
  try {
    const result = await vscode.commands.executeCommand('stratus.setApiKey');
    assert.equal(asked, 1, 'the key was typed into the input box');
    return result;
  } finally {
    win.showInputBox = original;
  }
}

async function answer(model: vscode.LanguageModelChat, prompt: string): Promise<string> {
  const response = await model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, new vscode.CancellationTokenSource().token);
  let text = '';
  for await (const part of response.text) text += part;
  return text;
}

/** What the user has right after the command returned: the models, and an answer from one. */
async function assertUsableNow(): Promise<void> {
  const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
  const ids = models.map((m) => m.id);
  const model = models.find((m) => m.id === 'gpt-oss:120b');
  assert.ok(model, `the Stratus models right after the key was set, got ${JSON.stringify(ids)}`);
  assert.match(await answer(model, 'after the rotation'), /after the rotation/);
}

describe('account: a new key after a 401 at start-up (rotated key)', function () {
  this.timeout(60_000);

  beforeEach(async () => {
    await control('/reset', {});
    // The rotated key is what the window opened with: listing the models fails with 401.
    assert.equal(await setKeyThroughInputBox(ROTATED_KEY), true);
    const before = await vscode.lm.selectChatModels({ vendor: VENDOR });
    assert.ok(!before.some((m) => m.id === 'gpt-oss:120b'), 'no sandbox model with the rejected key');
    const listed = await requests('/v1/models');
    assert.ok(listed.some((r) => r.status === 401), 'the listing was refused');
  });
  afterEach(async () => {
    await control('/reset', {});
    await vscode.commands.executeCommand('stratus.removeApiKey');
  });

  it('the new key arrives after the 401 listing answered', async () => {
    assert.equal(await setKeyThroughInputBox(sandbox().apiKey), true);
    await assertUsableNow();
  });

  it('the new key arrives while a listing with the rejected key is still in flight', async () => {
    // The start-up listing answers late: the key event comes before its 401.
    await control('/latency', { ms: 1_500, pathPrefix: '/v1/models' });
    const inFlight = vscode.commands.executeCommand('stratus.refreshModels');
    const modelsSeen = async (): Promise<number> => (await requests('/v1/models')).length;
    const startCount = await modelsSeen();
    for (let i = 0; i < 50 && (await modelsSeen()) === startCount; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const refreshedBefore = vscode.lm.selectChatModels({ vendor: VENDOR });
    assert.equal(await setKeyThroughInputBox(sandbox().apiKey), true);
    await assertUsableNow();
    await Promise.all([inFlight, refreshedBefore]);
  });
});
