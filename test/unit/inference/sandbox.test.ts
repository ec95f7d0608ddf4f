import assert from 'node:assert/strict';
import {
  ApiError,
  AuthError,
  CancelledError,
  InterruptedError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  StreamStalledError,
} from '../../../src/core/errors';
import {
  createInferenceClient,
  fitConversation,
  type ChatRequest,
  type ChatStreamEvent,
  type InferenceClient,
  type InferenceClientOptions,
} from '../../../src/core/inference';
import { startSandbox, type Sandbox, type SandboxProfile } from '../../sandbox/index';
import { eventually } from '../sandbox/helpers';

/** One second of 8 kHz 8-bit mono silence: the sandbox sniffs audio by its RIFF/WAVE header. */
function wavSecond(): Uint8Array {
  const rate = 8000;
  const data = Buffer.alloc(rate, 0x80);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // byte rate
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return new Uint8Array(Buffer.concat([header, data]));
}

async function events(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

const hello: ChatRequest = { model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hello sandbox' }] };

for (const profile of ['contract', 'production'] as SandboxProfile[]) {
  describe(`inference client against the sandbox (${profile} profile)`, function () {
    let sandbox: Sandbox;
    const clients: InferenceClient[] = [];

    before(async () => {
      sandbox = await startSandbox({ port: 0, profile });
    });
    after(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await sandbox.close();
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      sandbox.control.reset();
    });

    function client(options: Partial<InferenceClientOptions> = {}): InferenceClient {
      const c = createInferenceClient({
        baseUrl: sandbox.inferenceUrl,
        apiKey: () => Promise.resolve(sandbox.credentials.apiKey),
        retry: { baseDelayMs: 1, maxDelayMs: 10 },
        ...options,
      });
      clients.push(c);
      return c;
    }

    it('lists models with max_model_len and inferred kinds', async () => {
      const models = await client().models.list();
      const byId = new Map(models.map((m) => [m.id, m]));
      assert.equal(byId.get('gpt-oss:120b')?.kind, 'chat');
      assert.equal(byId.get('qwen3-vl:8b')?.kind, 'vision');
      assert.equal(byId.get('bge-m3:567m')?.kind, 'embedding');
      assert.equal(byId.get('qwen3-reranker:4b')?.kind, 'rerank');
      assert.equal(byId.get('whisper-large-v3')?.kind, 'speech');
      assert.equal(byId.get('deepseek-ocr:3b')?.kind, 'ocr');
      assert.ok(models.every((m) => m.maxModelLen === undefined || m.maxModelLen > 0));
      assert.equal(byId.get('smollm2:135m')?.maxModelLen, 512);
    });

    it('answers a plain chat with usage and rate-limit headers', async () => {
      const result = await client().chat(hello);
      assert.match(result.text, /Hello sandbox/);
      assert.equal(result.finishReason, 'stop');
      assert.ok(result.usage && result.usage.completionTokens > 0);
      assert.ok(result.id?.startsWith('chatcmpl-'));
      const reset = result.meta.rateLimit?.resetRequestsAt;
      assert.ok(reset, 'X-RateLimit-Reset-Requests is read');
      const ahead = reset.getTime() - Date.now();
      assert.ok(ahead > -5_000 && ahead < 2 * 86_400_000, `reset ${reset.toISOString()} is near (Unix time or delta)`);
    });

    it('streams a chat answer; usage arrives in the final chunk when asked for', async () => {
      const all = await events(client().chatStream({ ...hello, messages: [{ role: 'user', content: 'long 20' }] }, { includeUsage: true }));
      const text = all.map((e) => (e.type === 'text' ? e.text : '')).join('');
      assert.match(text, /^1 2 3/);
      assert.ok(all.filter((e) => e.type === 'text').length >= 20);
      assert.ok(all.some((e) => e.type === 'finish'));
      assert.ok(all.some((e) => e.type === 'usage'));
      const done = all.at(-1);
      assert.ok(done?.type === 'done');
      assert.equal(done.result.text, text);
      assert.ok(done.result.usage && done.result.usage.completionTokens > 0);
    });

    it('streams tool calls assembled by index, then takes the tool result', async () => {
      const tools: ChatRequest['tools'] = [
        {
          type: 'function',
          function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        },
      ];
      const ask: ChatRequest = {
        model: 'gpt-oss:120b',
        tools,
        messages: [{ role: 'user', content: 'Call get_weather with {"city":"Paris, France"}' }],
      };
      const first = await client().chatStream(ask).consume();
      assert.equal(first.finishReason, 'tool_calls');
      assert.equal(first.toolCalls.length, 1);
      const call = first.toolCalls[0];
      assert.ok(call);
      assert.equal(call.function.name, 'get_weather');
      assert.deepEqual(JSON.parse(call.function.arguments), { city: 'Paris, France' });
      const second = await client().chat({
        ...ask,
        messages: [...ask.messages, first.message, { role: 'tool', tool_call_id: call.id, content: '{"temp":21}' }],
      });
      assert.match(second.text, /Tool result \(get_weather\)/);
    });

    it('separates <think> from the answer for a reasoning model', async () => {
      const result = await client().chatStream({ model: 'qwen3:30b', messages: [{ role: 'user', content: 'think about it' }] }).consume();
      assert.match(result.thinking, /planning a scripted answer/);
      assert.ok(!result.text.includes('<think>'));
      assert.match(result.text, /think about it/);
    });

    it('completes text through /v1/completions', async () => {
      const result = await client().complete({ model: 'gpt-oss:120b', prompt: 'complete me' });
      assert.match(result.text, /complete me/);
    });

    it('embeds in input order', async () => {
      const result = await client().embed({ model: 'bge-m3:567m', input: ['alpha', 'beta', 'gamma'] });
      assert.equal(result.embeddings.length, 3);
      assert.ok(result.embeddings.every((v) => v.length > 0 && v.every((x) => typeof x === 'number')));
      assert.notDeepEqual(result.embeddings[0], result.embeddings[1]);
      assert.ok(result.usage && result.usage.promptTokens > 0);
    });

    for (const version of ['v1', 'v2'] as const) {
      it(`reranks through /${version}/rerank with top_n, return_documents and billed search units`, async () => {
        const documents = ['The Eiffel Tower is in Paris.', 'Bananas are yellow.', 'Paris is the capital of France.'];
        const result = await client().rerank({
          model: 'qwen3-reranker:4b',
          query: 'Eiffel Tower Paris',
          documents,
          top_n: 2,
          return_documents: true,
          version,
        });
        assert.equal(result.results.length, 2);
        assert.ok((result.results[0]?.relevanceScore ?? 0) >= (result.results[1]?.relevanceScore ?? 0));
        for (const hit of result.results) assert.equal(hit.document, documents[hit.index]);
        assert.ok(result.searchUnits !== undefined && result.searchUnits >= 1);
        const seen = sandbox.control.requests({ pathPrefix: `/${version}/rerank` });
        assert.equal(seen.length, 1);
      });
    }

    it('transcribes a WAV file sent as multipart', async () => {
      const result = await client().transcribe({
        file: wavSecond(),
        filename: 'memo.wav',
        language: 'fr',
        initial_prompt: 'Stratus',
        task: 'transcribe',
      });
      assert.match(result.text, /memo\.wav/);
      assert.equal(result.language, 'fr');
      assert.ok(result.segments.length >= 1);
      assert.ok(result.durationSeconds !== undefined && result.durationSeconds > 0);
    });

    it('fits a conversation into a small context using max_model_len', async () => {
      const c = client();
      const model = await c.models.find('smollm2:135m');
      assert.ok(model?.maxModelLen);
      const long = 'word '.repeat(200);
      const messages: ChatRequest['messages'] = [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: long },
        { role: 'assistant', content: long },
        { role: 'user', content: 'and now?' },
      ];
      await assert.rejects(c.chat({ model: model.id, messages, max_tokens: 256 }), (e: unknown) => e instanceof ApiError && e.status === 400);
      const fit = fitConversation(messages, model.maxModelLen, { maxTokens: 256 });
      assert.ok(fit.dropped > 0 && fit.fits);
      const result = await c.chat({ model: model.id, messages: fit.messages, max_tokens: fit.maxTokens });
      assert.match(result.text, /and now\?/);
    });

    it('rejects a wrong key with AuthError (rejected), without echoing it', async () => {
      const wrong = 'sk-wrong-key-1234567890';
      await assert.rejects(client({ apiKey: () => Promise.resolve(wrong) }).chat(hello), (e: unknown) => {
        assert.ok(e instanceof AuthError);
        assert.equal(e.reason, 'rejected');
        assert.equal(e.status, 401);
        assert.ok(!e.message.includes(wrong));
        return true;
      });
    });

    it('maps an unknown model to NotFoundError(model_not_found)', async () => {
      await assert.rejects(client().chat({ ...hello, model: 'no-such-model' }), (e: unknown) => {
        return e instanceof NotFoundError && e.code === 'model_not_found' && e.param === 'model';
      });
    });

    it('retries 429 bursts (with Retry-After), and a 503 once (each chat may be billed)', async () => {
      sandbox.control.burst({ status: 429, count: 2, retryAfterSeconds: 0 });
      assert.match((await client().chat(hello)).text, /Hello sandbox/);
      sandbox.control.burst({ status: 503, count: 1 });
      assert.match((await client().chatStream(hello).consume()).text, /Hello sandbox/);
    });

    it('gives up on a long burst with the typed error, and on a long Retry-After with RateLimitError', async () => {
      sandbox.control.burst({ status: 500, count: 10 });
      await assert.rejects(client({ retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }).chat(hello), (e: unknown) => e instanceof ApiError && e.status === 500);
      sandbox.control.reset();
      sandbox.control.burst({ status: 429, count: 5, retryAfterSeconds: 3600 });
      await assert.rejects(client().chat(hello), (e: unknown) => {
        return e instanceof RateLimitError && e.retryAt instanceof Date && e.retryAt.getTime() > Date.now() + 3_000_000;
      });
    });

    it('reports a malformed event as MalformedResponseError', async () => {
      sandbox.control.injectStreamFault({ kind: 'malformed', afterChunks: 2 });
      await assert.rejects(client().chatStream({ ...hello, messages: [{ role: 'user', content: 'long 10' }] }).consume(), MalformedResponseError);
    });

    it('reports a truncated stream clearly: interrupted after text, unreadable before', async () => {
      sandbox.control.injectStreamFault({ kind: 'truncate', afterChunks: 2 });
      await assert.rejects(client().chatStream({ ...hello, messages: [{ role: 'user', content: 'long 10' }] }).consume(), (e: unknown) => e instanceof InterruptedError && e.reason === 'ended');
      sandbox.control.injectStreamFault({ kind: 'truncate', afterChunks: 1 });
      await assert.rejects(client().chatStream({ ...hello, messages: [{ role: 'user', content: 'long 10' }] }).consume(), MalformedResponseError);
    });

    it('reports a connection dropped before any text as NetworkError (not retried)', async () => {
      // After the role chunk only: nothing visible arrived (after text it is an InterruptedError, see interruptions.test.ts).
      sandbox.control.injectStreamFault({ kind: 'drop', afterChunks: 1 });
      await assert.rejects(client().chatStream({ ...hello, messages: [{ role: 'user', content: 'long 10' }] }).consume(), NetworkError);
      assert.equal(sandbox.control.requests({ pathPrefix: '/v1/chat' }).length, 1);
    });

    it('fails a stalled stream: StreamStalledError before text, InterruptedError (stalled) after', async () => {
      const c = client({ timeouts: { idleMs: 200 } });
      sandbox.control.injectStreamFault({ kind: 'stall', afterChunks: 1 });
      await assert.rejects(c.chatStream({ ...hello, messages: [{ role: 'user', content: 'long 10' }] }).consume(), StreamStalledError);
      sandbox.control.injectStreamFault({ kind: 'stall', afterChunks: 2 });
      await assert.rejects(c.chatStream({ ...hello, messages: [{ role: 'user', content: 'long 10' }] }).consume(), (e: unknown) => e instanceof InterruptedError && e.reason === 'stalled');
    });

    it('cancels mid-stream: the sandbox sees the connection closed early', async () => {
      // The stream stalls after 6 events (no pacing by time): the abort at the 3rd is surely mid-stream.
      sandbox.control.injectStreamFault({ kind: 'stall', afterChunks: 6 });
      const controller = new AbortController();
      let n = 0;
      await assert.rejects(
        client()
          .chatStream({ ...hello, messages: [{ role: 'user', content: 'long 50' }] }, { signal: controller.signal })
          .consume(() => {
            if (++n === 3) controller.abort();
          }),
        CancelledError,
      );
      // The server notices the closed socket on its own schedule: wait for that event, not a time.
      await eventually(() => sandbox.control.requests({ pathPrefix: '/v1/chat' })[0]?.clientClosedEarly === true);
    });

    it('never sends the key anywhere but the Authorization header', async () => {
      await client().chat(hello);
      const seen = sandbox.control.requests({ pathPrefix: '/v1/chat' })[0];
      assert.ok(seen);
      assert.ok(!JSON.stringify(seen.body).includes(sandbox.credentials.apiKey));
      assert.ok(seen.headers.authorization && !seen.headers.authorization.includes(sandbox.credentials.apiKey), 'the sandbox log redacts it');
    });
  });
}
