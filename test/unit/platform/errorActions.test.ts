import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, AuthError, NetworkError, NotFoundError, RateLimitError, TimeoutError, UsageCapError } from '../../../src/core/errors';
import { presentTranscriptionError } from '../../../src/core/inference/transcription/errors';
import { presentError, type ErrorAction } from '../../../src/core/presentError';
import { buttonActions, defaultActionCommand, ErrorActionCommands, needsHandler, notificationText } from '../../../src/platform/errorActions';

const ALL: ErrorAction[] = ['setApiKey', 'signIn', 'pickModel', 'openSettings', 'retry', 'showLog', 'showUsage', 'openSizeSetting', 'pickSpeechModel', 'changeOptions'];

describe('platform/errorActions (the pure half of the error surface)', () => {
  it('runs each action that needs no feature handler as a command; the re-runs need one', () => {
    assert.deepEqual(defaultActionCommand('setApiKey'), { command: 'stratus.setApiKey' });
    assert.deepEqual(defaultActionCommand('signIn'), { command: 'stratus.signIn' });
    assert.deepEqual(defaultActionCommand('pickModel'), { command: 'stratus.pickModel' });
    assert.deepEqual(defaultActionCommand('showUsage'), { command: 'stratus.showUsage' });
    assert.deepEqual(defaultActionCommand('showLog'), { command: 'stratus.showLog' });
    assert.deepEqual(defaultActionCommand('openSettings'), { command: 'workbench.action.openSettings', arguments: ['stratus.inference'] });
    assert.deepEqual(defaultActionCommand('openSizeSetting'), { command: 'workbench.action.openSettings', arguments: ['stratus.transcription.maxFileSizeMB'] });
    for (const action of ALL) assert.equal(defaultActionCommand(action) === undefined, needsHandler(action), action);
    assert.deepEqual(ALL.filter(needsHandler), ['retry', 'pickSpeechModel', 'changeOptions']);
  });

  it('the commands it runs are contributed by the extension', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
    const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const id of Object.values(ErrorActionCommands)) assert.ok(contributed.has(id), id);
  });

  it('keeps the order, shows each action once, and drops Retry without a retry', () => {
    assert.deepEqual(buttonActions(['openSettings', 'retry', 'showLog', 'retry'], () => true), ['openSettings', 'retry', 'showLog']);
    assert.deepEqual(buttonActions(['openSettings', 'retry', 'showLog'], () => false), ['openSettings', 'showLog']);
    assert.deepEqual(buttonActions(['changeOptions', 'showLog'], (a) => a !== 'changeOptions'), ['showLog']);
    assert.deepEqual(buttonActions([], () => true), []);
  });

  it('every action of the shared and the transcription presenter becomes a button when the feature can re-run', () => {
    const now = Date.UTC(2026, 0, 1);
    const errors = [
      new AuthError('x', { reason: 'missing', secretName: 'inference API key' }),
      new AuthError('x', { reason: 'rejected', secretName: 'console access token', status: 401 }),
      new NotFoundError({ status: 404, message: 'nope', code: 'model_not_found', param: 'model' }),
      new RateLimitError({ status: 429, message: 'slow', retryAfterMs: 1000 }, { now }),
      new TimeoutError('t', 'first_byte', 1000),
      new NetworkError('n', 'ECONNREFUSED'),
      new ApiError({ status: 413, message: 'too large' }),
      new ApiError({ status: 400, message: 'bad', param: 'language' }),
      new UsageCapError('cap', 'hour', 10, 10, new Date(now + 60_000), '01:01'),
      'boom',
    ];
    for (const error of errors) {
      for (const actions of [presentError(error, now).actions, presentTranscriptionError(error, { fileName: 'a.wav' }, now).actions]) {
        assert.deepEqual(buttonActions(actions, () => true), [...new Set(actions)], String(error));
      }
    }
  });

  it('says "Stratus:", what failed, the message and what was kept, unless the feature gives the whole text', () => {
    assert.equal(notificationText('Cannot reach the service.', {}), 'Stratus: Cannot reach the service.');
    assert.equal(notificationText('Cannot reach the service.', { prefix: 'Cannot list models.', suffix: 'Kept.' }), 'Stratus: Cannot list models. Cannot reach the service. Kept.');
    assert.equal(notificationText('ignored', { text: 'Stratus: "Create VM" failed. Nope.', prefix: 'x' }), 'Stratus: "Create VM" failed. Nope.');
  });
});
