import assert from 'node:assert/strict';
import { createInferenceClient, type ChatRequest, type InferenceClient } from '../../../src/core/inference';
import type { SandboxProfile } from '../../sandbox/index';
import { useSandbox } from './helpers';

const TOOLS: ChatRequest['tools'] = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
  { type: 'function', function: { name: 'list_vms', parameters: { type: 'object', properties: {} } } },
];

const TEXT_CALL_MODELS = ['gpt-oss:20b-harmony', 'qwen2.5:7b', 'mistral-nemo:12b', 'llama3.1:8b'];

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`sandbox family models (${profile} profile): calls printed as text come back as tool calls`, () => {
    const sb = useSandbox({ profile });
    const clients: InferenceClient[] = [];
    const client = (): InferenceClient => {
      const c = createInferenceClient({ baseUrl: sb().inferenceUrl, apiKey: () => Promise.resolve(sb().credentials.apiKey), retry: { attempts: 1 } });
      clients.push(c);
      return c;
    };
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
    });

    it('lists the family models', async () => {
      const ids = (await client().models.list()).map((m) => m.id);
      for (const id of TEXT_CALL_MODELS) assert.ok(ids.includes(id), id);
    });

    for (const model of TEXT_CALL_MODELS) {
      it(`${model}: one call, two calls, then the answer after the results, no marker shown`, async () => {
        const ask: ChatRequest = { model, tools: TOOLS, messages: [{ role: 'user', content: 'Call get_weather with {"city":"Paris"}' }] };
        let shown = '';
        const first = await client().chatStream(ask).consume((e) => {
          if (e.type === 'text') shown += e.text;
        });
        assert.equal(shown.trim(), '');
        assert.equal(first.finishReason, 'tool_calls');
        assert.deepEqual(first.toolCalls.map((c) => [c.function.name, JSON.parse(c.function.arguments)]), [['get_weather', { city: 'Paris' }]]);

        const two = await client().chatStream({ ...ask, messages: [{ role: 'user', content: 'use get_weather then list_vms' }] }).consume();
        assert.deepEqual(two.toolCalls.map((c) => c.function.name), ['get_weather', 'list_vms']);

        const call = first.toolCalls[0];
        assert.ok(call);
        const answer = await client().chatStream({ ...ask, messages: [...ask.messages, first.message, { role: 'tool', tool_call_id: call.id, content: '{"temp":21}' }] }).consume();
        assert.deepEqual(answer.toolCalls, []);
        assert.equal(answer.text, 'Tool result (get_weather): {"temp":21}');
        assert.doesNotMatch(answer.text, /<\||\[TOOL_CALLS\]|<tool_call>/);
      });
    }

    it('a whole (non-streamed) answer is read the same way', async () => {
      for (const model of TEXT_CALL_MODELS) {
        const result = await client().chat({ model, tools: TOOLS, messages: [{ role: 'user', content: 'Call get_weather with {"city":"Paris"}' }] });
        assert.equal(result.finishReason, 'tool_calls', model);
        assert.deepEqual(result.toolCalls.map((c) => [c.function.name, JSON.parse(c.function.arguments)]), [['get_weather', { city: 'Paris' }]], model);
        assert.equal(result.text, '', model);
      }
      const plain = await client().chat({ model: 'gpt-oss:20b-harmony', messages: [{ role: 'user', content: 'hello' }] });
      assert.equal(plain.text, 'Echo (gpt-oss:20b-harmony): hello');
      assert.equal(plain.thinking, 'Answering from the script.');
    });

    it('gpt-oss:20b-harmony: reasoning on the analysis channel, the answer on final', async () => {
      const result = await client().chatStream({ model: 'gpt-oss:20b-harmony', messages: [{ role: 'user', content: 'hello' }] }).consume();
      assert.equal(result.text, 'Echo (gpt-oss:20b-harmony): hello');
      assert.equal(result.thinking, 'Answering from the script.');
    });

    it('qwen3:8b sends its reasoning apart (reasoning_content), with its calls and with its answer; none with enable_thinking false', async () => {
      const ask: ChatRequest = { model: 'qwen3:8b', tools: TOOLS, messages: [{ role: 'user', content: 'Call get_weather with {"city":"Paris"}' }] };
      const first = await client().chatStream(ask).consume();
      assert.deepEqual(first.toolCalls.map((c) => c.function.name), ['get_weather']);
      assert.equal(first.thinking, 'The user needs get_weather; calling it with the arguments given.');
      assert.equal(first.text, '');
      const whole = await client().chat({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'hello' }] });
      assert.equal(whole.text, 'Echo (qwen3:8b): hello');
      assert.equal(whole.thinking, 'The tool results are in; answering with them.');
      const off = await client().chatStream(ask, { extraBody: [{ chat_template_kwargs: { enable_thinking: false } }] }).consume();
      assert.deepEqual(off.toolCalls.map((c) => c.function.name), ['get_weather']);
      assert.equal(off.thinking, '');
    });

    it('gpt-oss:20b-harmony thinks longer at reasoning_effort high than at low', async () => {
      const at = async (effort: string): Promise<string> =>
        (await client().chatStream({ model: 'gpt-oss:20b-harmony', messages: [{ role: 'user', content: 'hello' }] }, { extraBody: [{ reasoning_effort: effort }] }).consume()).thinking;
      const [low, high] = [await at('low'), await at('high')];
      assert.equal(low, 'Answering.');
      assert.ok(high.length > 'Answering from the script.'.length && high.startsWith('Answering from the script.'), high);
    });

    it('refuses a reasoning_effort or chat_template_kwargs it cannot read, with a clear 400', async () => {
      for (const [extra, param] of [[{ reasoning_effort: 'extreme' }, 'reasoning_effort'], [{ chat_template_kwargs: 'on' }, 'chat_template_kwargs'], [{ chat_template_kwargs: { enable_thinking: 'no' } }, 'chat_template_kwargs']] as const) {
        await assert.rejects(client().chat({ model: 'qwen3:8b', messages: [{ role: 'user', content: 'hello' }] }, { extraBody: [extra] }), (error: Error & { status?: number; param?: string }) => {
          assert.equal(error.status, 400, error.message);
          assert.match(error.message, new RegExp(param));
          return true;
        });
      }
    });

    it('a text-call model with no tools offered answers in plain text', async () => {
      const result = await client().chatStream({ model: 'qwen2.5:7b', messages: [{ role: 'user', content: 'hello' }] }).consume();
      assert.equal(result.text, 'Echo (qwen2.5:7b): hello');
    });
  });
}
