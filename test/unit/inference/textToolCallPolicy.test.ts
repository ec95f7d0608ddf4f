import assert from 'node:assert/strict';
import { parseTextToolCallSetting, textToolCallsEnabled } from '../../../src/core/inference/chat/textToolCallPolicy';
import type { ToolDefinition } from '../../../src/core/inference/chat/types';
import { createInferenceClient } from '../../../src/core/inference/client';
import { silentLogger } from '../../../src/core/log';
import { cannedEngine } from '../properties/harness';
import { chunk } from './helpers/contract';

describe('inference/chat stratus.models.textToolCalls', () => {
  it('is on for every model by default', () => {
    assert.equal(textToolCallsEnabled(parseTextToolCallSetting({}), 'llama3.1:8b'), true);
    assert.equal(textToolCallsEnabled(parseTextToolCallSetting(undefined), 'llama3.1:8b'), true);
  });

  it('turns off by id or glob; an exact id wins, then the longest glob', () => {
    const setting = parseTextToolCallSetting({ 'llama3.1:*': false, 'llama3.1:70b': true, '*': true, 'qwen?.5:7b': false, 'mistral*': false, 'mistral-nemo*': true });
    assert.equal(textToolCallsEnabled(setting, 'llama3.1:8b'), false);
    assert.equal(textToolCallsEnabled(setting, 'llama3.1:70b'), true);
    assert.equal(textToolCallsEnabled(setting, 'qwen2.5:7b'), false);
    assert.equal(textToolCallsEnabled(setting, 'qwen2x5:7b'), true, 'a dot is a dot');
    assert.equal(textToolCallsEnabled(setting, 'mistral-small3.2:24b'), false);
    assert.equal(textToolCallsEnabled(setting, 'mistral-nemo:12b'), true);
    assert.equal(textToolCallsEnabled(setting, 'gpt-oss:120b'), true);
  });

  it('ignores entries that are not booleans, and non-objects', () => {
    assert.equal(parseTextToolCallSetting({ a: 'false', b: 0, c: null, d: false }).size, 1);
    assert.equal(parseTextToolCallSetting([false]).size, 0);
    assert.equal(parseTextToolCallSetting('x').size, 0);
    assert.equal(textToolCallsEnabled(parseTextToolCallSetting({ constructor: false }), 'toString'), true);
  });
});

describe('inference client: recovery per model, one log line each time', () => {
  const sse = (content: string): string =>
    [chunk({ content }), chunk({ content: '' }, 'stop')].map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
  const tools: ToolDefinition[] = [{ type: 'function', function: { name: 'list_vms', parameters: { type: 'object', properties: {} } } }];

  for (const [model, expected] of [['llama3.1:8b', 1], ['llama3.1:70b', 0]] as const) {
    it(`${model}: ${expected ? 'recovered and logged' : 'off by the setting: left as text'}`, async () => {
      const lines: string[] = [];
      const setting = parseTextToolCallSetting({ 'llama3.1:70b': false });
      const client = createInferenceClient({
        baseUrl: 'https://api.example.test/v1',
        apiKey: () => Promise.resolve('sk-policy-FAKE-0123456789'),
        retry: { attempts: 1 },
        fetch: cannedEngine({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: sse('{"name": "list_vms", "parameters": {}}') }),
        logger: { ...silentLogger, info: (line: string) => lines.push(line) },
        textToolCalls: (m) => textToolCallsEnabled(setting, m),
      });
      const result = await client.chatStream({ model, messages: [{ role: 'user', content: 'vms?' }], tools }).consume();
      assert.equal(result.toolCalls.length, expected);
      assert.equal(lines.filter((l) => l.includes('printed as text')).length, expected);
      if (!expected) assert.equal(result.text, '{"name": "list_vms", "parameters": {}}');
      await client.close();
    });
  }
});
