import * as assert from 'node:assert/strict';
import { openStratusView, openWorkbench, screenshot, sendChat, type Workbench } from './workbench';

describe('UI: Stratus in the workbench', function () {
  this.timeout(180_000);
  let workbench: Workbench;

  before(async () => {
    workbench = await openWorkbench();
  });
  after(async () => {
    await workbench?.close();
  });

  it('shows the Stratus view with sign-in actions', async () => {
    const { page } = workbench;
    await openStratusView(page);
    const signIn = page.getByRole('button', { name: 'Sign In to Console' });
    await signIn.waitFor({ timeout: 20_000 });
    await screenshot(page, 'stratus-view');
  });

  it('answers "@stratus hello" in the Chat view with the not-configured message and its action', async () => {
    const { page } = workbench;
    const response = await sendChat(page, '@stratus hello');
    const button = response.getByRole('button', { name: 'Set Inference API Key' });
    await button.waitFor({ timeout: 30_000 });
    const text = await response.innerText();
    assert.match(text, /not configured: set your API key/i);
    await screenshot(page, 'chat-not-configured');
  });
});
