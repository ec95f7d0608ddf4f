import assert from 'node:assert/strict';
import { Redactor } from '../../../src/core/http/redact';
import { activityBrief, askQuery, briefJson, MAX_BRIEF_CHARS, redactFields, resourceBrief } from '../../../src/core/console/itemBrief';
import type { Activity } from '../../../src/core/console/types';

const identity = (text: string): string => text;

function activity(state: Activity['state']): Activity {
  return { id: 'act-1', description: 'Create VM web-1', type: 'vm.create', tenantId: 't1', creationDate: '2026-11-27T10:00:00Z', concernedItems: [{ type: 'virtualMachine', id: 'vm-9' }], state, raw: { id: 'act-1', token: 'abc' } };
}

describe('Ask @stratus: the item as a JSON block', () => {
  it('replaces secret-named fields at any depth, whatever their value', () => {
    const out = redactFields({ name: 'web-1', password: 'hunter2', nested: { apiKey: 'k', api_key: 'k', privateKey: 'p', clientSecret: 's', accessToken: 't', Authorization: 'Bearer x', sshKeys: ['public'] }, list: [{ passphrase: 'x', ok: 1 }] });
    assert.deepEqual(out, { name: 'web-1', password: '[REDACTED]', nested: { apiKey: '[REDACTED]', api_key: '[REDACTED]', privateKey: '[REDACTED]', clientSecret: '[REDACTED]', accessToken: '[REDACTED]', Authorization: '[REDACTED]', sshKeys: ['public'] }, list: [{ passphrase: '[REDACTED]', ok: 1 }] });
  });

  it('finds secret names written every way: pwd, key, accessKey, kubeconfig, user data and cloud-init, connection strings and DSNs', () => {
    const fields = { pwd: 'a', db_pwd: 'a', key: 'a', accessKey: 'a', ACCESS_KEY: 'a', storage_key: 'a', apikey: 'a', kubeconfig: 'a', kubeConfig: 'a', userData: '#!/bin/sh', user_data: 'a', cloudInit: 'a', 'cloud-config': 'a', connectionString: 'a', ConnStr: 'a', dsn: 'a', sentryDsn: 'a' };
    const out = redactFields(fields) as Record<string, unknown>;
    assert.deepEqual(Object.entries(out).filter(([, v]) => v !== '[REDACTED]'), []);
    // Words that only contain a secret word stay: names of keys, public keys, unrelated words.
    const kept = { keyName: 'k1', keyPairName: 'k1', monkey: 'm', publicKey: 'ssh-ed25519 AAAA', sshKeys: ['public'], userName: 'ann', pinned: true };
    assert.deepEqual(redactFields(kept), kept);
  });

  it('redacts the value of a name/value pair whose name is a secret, keeping its name and other pairs', () => {
    const raw = {
      env: [{ name: 'DB_PASSWORD', value: 'hunter2' }, { name: 'LOG_LEVEL', value: 'debug' }, { name: 'STRIPE_API_KEY', value: 'sk_live_1' }],
      tags: [{ Key: 'Name', Value: 'web' }, { Key: 'github_token', Value: 'ghp_x' }, { key: 'env', value: 'prod' }],
      settings: [{ key: 'session.cookie', value: { nested: 'x' } }, { name: 'kubeconfig', value: 'apiVersion: v1' }],
    };
    assert.deepEqual(redactFields(raw), {
      env: [{ name: 'DB_PASSWORD', value: '[REDACTED]' }, { name: 'LOG_LEVEL', value: 'debug' }, { name: 'STRIPE_API_KEY', value: '[REDACTED]' }],
      tags: [{ Key: 'Name', Value: 'web' }, { Key: 'github_token', Value: '[REDACTED]' }, { key: 'env', value: 'prod' }],
      settings: [{ key: 'session.cookie', value: '[REDACTED]' }, { name: 'kubeconfig', value: '[REDACTED]' }],
    });
    const json = briefJson(resourceBrief({ id: 'apps', label: 'App' }, { id: 'a1', name: 'api', raw }), identity);
    assert.ok(!/hunter2|sk_live_1|ghp_x|apiVersion/.test(json), json);
  });

  it('passes the text through the redactor too (a known secret in an ordinary field)', () => {
    const redactor = new Redactor();
    redactor.add('sandbox-pat-secret-value');
    const json = briefJson(resourceBrief({ id: 'users', label: 'User' }, { id: 'u1', name: 'ann', raw: { note: 'pasted sandbox-pat-secret-value here' } }), (t) => redactor.redact(t));
    assert.ok(!json.includes('sandbox-pat-secret-value'));
    assert.match(json, /pasted \[REDACTED\] here/);
  });

  it('a failed activity says its state and reason; another its progress; both their concerned items', () => {
    const failed = activityBrief(activity({ kind: 'failed', reason: 'quota exceeded' }));
    assert.deepEqual([failed.kind, failed.id, failed.state, failed.reason, failed.concerns], ['activity', 'act-1', 'failed', 'quota exceeded', [{ type: 'virtualMachine', id: 'vm-9' }]]);
    assert.equal(activityBrief(activity({ kind: 'failed' })).reason, '(the console gave no reason)');
    const running = activityBrief(activity({ kind: 'running', progression: 40 }));
    assert.deepEqual([running.state, running.progression, running.reason], ['running', 40, undefined]);
    assert.match(briefJson(failed, identity), /"fields":\{"id":"act-1","token":"\[REDACTED\]"\}/);
  });

  it('stays within its size: long fields shortened, then left out', () => {
    const huge = resourceBrief({ id: 'vms', label: 'Virtual machine' }, { id: 'vm-1', name: 'big', raw: { disks: Array.from({ length: 500 }, (_, k) => ({ id: `disk-${k}`, label: 'x'.repeat(300) })), notes: 'y'.repeat(20_000) } });
    const json = briefJson(huge, identity);
    assert.ok(json.length <= MAX_BRIEF_CHARS, `${json.length} chars`);
    const parsed = JSON.parse(json) as Record<string, unknown>;
    assert.deepEqual([parsed.kind, parsed.id, parsed.name], ['vms', 'vm-1', 'big']);
  });

  it('the query: @stratus, the question, the block in a fence no value can close', () => {
    const query = askQuery('Tell me about this user.', resourceBrief({ id: 'users', label: 'User' }, { id: 'u1', name: 'a```b', raw: {} }), identity);
    assert.match(query, /^@stratus Tell me about this user\.\n\n````json\n\{"kind":"users","kindLabel":"User","id":"u1","name":"a```b","fields":\{\}\}\n````$/);
  });
});
