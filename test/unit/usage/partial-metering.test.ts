import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { CancelledError, InterruptedError } from '../../../src/core/errors';
import type { ChatRequest } from '../../../src/core/inference';
import type { UsageEvent, UsageEventOf } from '../../../src/core/usage/events';
import { chunk } from '../inference/helpers/contract';
import { startRig, type Rig } from '../inference/helpers/client';

const NOW = Date.parse('2026-04-14T10:20:00Z');
const request: ChatRequest = { model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Write a long story' }] };

describe('usage metering of streams that never finish', () => {
  let rig: Rig;
  let events: UsageEvent[];
  let response: ServerResponse | undefined;
  before(async () => {
    rig = await startRig();
  });
  after(() => rig.close());
  beforeEach(() => {
    events = [];
    response = undefined;
    // 30 characters of text, then nothing more until the test acts (a long generation).
    rig.handler = (_q, res) => {
      response = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: '' }))}\n\n`);
      for (const piece of ['0123456789', 'abcdefghij', 'ABCDEFGHIJ']) res.write(`data: ${JSON.stringify(chunk({ content: piece }))}\n\n`);
    };
  });
  afterEach(async () => {
    response?.destroy();
    await rig.reset();
  });

  const client = (): ReturnType<Rig['client']> => rig.client({ onUsage: (e) => events.push(e), usageNow: () => NOW });
  const chats = (): UsageEventOf<'chat'>[] => events.filter((e): e is UsageEventOf<'chat'> => e.kind === 'chat');

  it('a cancelled stream is counted from what arrived, marked estimated', async () => {
    const controller = new AbortController();
    let chars = 0;
    await assert.rejects(
      client().chatStream(request, { signal: controller.signal }).consume((e) => {
        if (e.type === 'text' && (chars += e.text.length) === 30) controller.abort();
      }),
      (e: unknown) => e instanceof CancelledError,
    );
    const [chat, more] = chats();
    assert.equal(more, undefined, 'counted once');
    assert.ok(chat);
    assert.equal(chat.estimated, true);
    assert.equal(chat.model, 'gpt-oss:120b');
    assert.equal(chat.completionTokens, 10, '30 characters at 3 per token');
    assert.ok(chat.promptTokens > 0);
  });

  it('an interrupted stream (connection reset) is counted, marked estimated', async () => {
    let chars = 0;
    await assert.rejects(
      client().chatStream(request).consume((e) => {
        if (e.type === 'text' && (chars += e.text.length) === 30) response?.destroy();
      }),
      (e: unknown) => e instanceof InterruptedError,
    );
    assert.deepEqual(chats().map((c) => [c.completionTokens, c.estimated]), [[10, true]]);
  });

  it('a for-await consumer that stops early is counted once, marked estimated', async () => {
    let chars = 0;
    for await (const e of client().chatStream(request)) {
      if (e.type === 'text' && (chars += e.text.length) === 30) break;
    }
    assert.deepEqual(chats().map((c) => [c.completionTokens, c.estimated]), [[10, true]]);
  });

  it('a consumer callback that throws still leaves the generated part counted', async () => {
    const boom = new Error('consumer failed');
    await assert.rejects(client().chatStream(request).consume((e) => {
      if (e.type === 'text') throw boom;
    }), (e: unknown) => e === boom);
    assert.deepEqual(chats().map((c) => [c.completionTokens, c.estimated]), [[4, true]], 'the first 10 characters');
  });

  it('counts nothing when nothing arrived before the cancel', async () => {
    rig.handler = (_q, res) => {
      response = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': waiting\n\n');
    };
    const controller = new AbortController();
    const stream = client().chatStream(request, { signal: controller.signal });
    const done = assert.rejects(stream.consume(), (e: unknown) => e instanceof CancelledError);
    // Abort once the server has the request.
    while (rig.server.requests.length === 0) await new Promise((r) => setImmediate(r));
    controller.abort();
    await done;
    assert.deepEqual(chats(), []);
  });
});
