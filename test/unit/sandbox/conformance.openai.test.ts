import assert from 'node:assert/strict';
import OpenAI, { toFile } from 'openai';
import type { SandboxProfile } from '../../sandbox/index';
import { makeWav, PNG_DATA_URI, useSandbox } from './helpers';

/** The official `openai` SDK against the sandbox: if the SDK cannot parse it, the sandbox is wrong. */

const weatherTool: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`conformance: official openai SDK (${profile} profile)`, () => {
    const sb = useSandbox({ profile });
    let client: OpenAI;
    before(() => {
      client = new OpenAI({ apiKey: sb().credentials.apiKey, baseURL: sb().inferenceUrl, maxRetries: 0 });
    });

    it('models.list()', async () => {
      const page = await client.models.list();
      const ids = page.data.map((m) => m.id);
      assert.ok(ids.includes('gpt-oss:120b'));
      assert.ok(page.data.every((m) => m.object === 'model' && typeof m.created === 'number'));
      const one = await client.models.retrieve('bge-m3:567m');
      assert.equal(one.id, 'bge-m3:567m');
    });

    it('chat.completions.create (plain), with image input', async () => {
      const completion = await client.chat.completions.create({ model: 'qwen3-vl:8b', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi sdk' }, { type: 'image_url', image_url: { url: PNG_DATA_URI } }] }] });
      assert.match(completion.choices[0]?.message.content ?? '', /^Echo \(qwen3-vl:8b\): hi sdk\n\[image 1: image\/png/);
      assert.equal(completion.choices[0]?.finish_reason, 'stop');
      assert.ok((completion.usage?.total_tokens ?? 0) > 0);
    });

    it('chat.completions.create (streamed) with include_usage', async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'markdown demo' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let finish: string | null = null;
      let usage: OpenAI.Completions.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      assert.match(text, /```ts/);
      assert.equal(finish, 'stop');
      assert.ok((usage?.completion_tokens ?? 0) > 0);
    });

    it('tool calls (not streamed), then the tool result answered', async () => {
      const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: 'user', content: 'use get_weather for Paris' }];
      const first = await client.chat.completions.create({ model: 'gpt-oss:120b', messages, tools: [weatherTool] });
      const choice = first.choices[0];
      assert.equal(choice?.finish_reason, 'tool_calls');
      assert.equal(choice?.message.content, null);
      const call = choice?.message.tool_calls?.[0];
      assert.ok(call && call.type === 'function');
      assert.deepEqual(JSON.parse(call.function.arguments), { city: 'for Paris' });
      messages.push(choice.message, { role: 'tool', tool_call_id: call.id, content: '{"temp": 18}' });
      const second = await client.chat.completions.create({ model: 'gpt-oss:120b', messages, tools: [weatherTool] });
      assert.equal(second.choices[0]?.message.content, 'Tool result (get_weather): {"temp": 18}');
    });

    it('tool calls (streamed), assembled by the SDK stream helper', async () => {
      const stream = client.chat.completions.stream({ model: 'mistral-small3.2:24b', messages: [{ role: 'user', content: 'get_weather {"city": "Grenoble"}' }], tools: [weatherTool] });
      const final = await stream.finalChatCompletion();
      const call = final.choices[0]?.message.tool_calls?.[0];
      assert.ok(call && call.type === 'function');
      assert.equal(call.function.name, 'get_weather');
      assert.deepEqual(JSON.parse(call.function.arguments), { city: 'Grenoble' });
      assert.equal(final.choices[0]?.finish_reason, 'tool_calls');
    });

    it('embeddings.create (SDK default base64 and explicit float)', async () => {
      const viaBase64 = await client.embeddings.create({ model: 'bge-m3:567m', input: ['alpha beta', 'gamma'] });
      assert.equal(viaBase64.data.length, 2);
      assert.equal(viaBase64.data[0]?.embedding.length, 1024);
      const viaFloat = await client.embeddings.create({ model: 'bge-m3:567m', input: ['alpha beta', 'gamma'], encoding_format: 'float' });
      assert.deepEqual(Array.from(viaBase64.data[0]?.embedding ?? []), viaFloat.data[0]?.embedding);
      assert.equal(viaFloat.usage.prompt_tokens, 5);
    });

    it('audio.transcriptions.create (multipart upload of a WAV)', async () => {
      const transcription = await client.audio.transcriptions.create({ file: await toFile(makeWav(6), 'hello.wav', { type: 'audio/wav' }), model: 'whisper-large-v3', language: 'fr', prompt: 'Stratus' });
      assert.equal(transcription.text, '[Stratus] Segment 1 of the sandbox transcription of hello.wav. Segment 2 of the sandbox transcription of hello.wav.');
    });

    it('errors map to the SDK error classes with type, code and param', async () => {
      await assert.rejects(client.chat.completions.create({ model: 'missing:1b', messages: [{ role: 'user', content: 'x' }] }), (error: unknown) => {
        assert.ok(error instanceof OpenAI.NotFoundError);
        assert.equal(error.code, 'model_not_found');
        assert.equal(error.param, 'model');
        return true;
      });
      await assert.rejects(client.chat.completions.create({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'x' }], temperature: 3 }), (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError);
        assert.equal(error.type, 'invalid_request_error');
        assert.equal(error.param, 'temperature');
        return true;
      });
      const bad = new OpenAI({ apiKey: 'sk-wrong', baseURL: sb().inferenceUrl, maxRetries: 0 });
      await assert.rejects(bad.models.list(), OpenAI.AuthenticationError);
      sb().control.burst({ status: 429, count: 1, retryAfterSeconds: 0 });
      await assert.rejects(client.chat.completions.create({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'x' }] }), OpenAI.RateLimitError);
      sb().control.burst({ status: 503, count: 1 });
      await assert.rejects(client.embeddings.create({ model: 'bge-m3:567m', input: 'x' }), OpenAI.InternalServerError);
    });
  });
}
