import assert from 'node:assert/strict';
import { estimateMessageTokens, fitConversation, type ChatMessage } from '../../../src/core/inference';

// Every message costs 100 tokens, so the arithmetic in the assertions stays readable.
const estimate = (): number => 100;

const system: ChatMessage = { role: 'system', content: 'sys' };
const u = (n: number): ChatMessage => ({ role: 'user', content: `u${n}` });
const a = (n: number): ChatMessage => ({ role: 'assistant', content: `a${n}` });
const call = (id: string): ChatMessage => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }],
});
const result = (id: string): ChatMessage => ({ role: 'tool', tool_call_id: id, content: '{}' });

describe('inference/models fitConversation', () => {
  it('keeps everything when it fits, with the wanted max_tokens', () => {
    const messages = [system, u(1), a(1), u(2)];
    const fit = fitConversation(messages, 2000, { estimate, maxTokens: 1000 });
    assert.deepEqual(fit.messages, messages);
    assert.equal(fit.dropped, 0);
    assert.equal(fit.promptTokens, 400);
    assert.equal(fit.maxTokens, 1000);
    assert.equal(fit.fits, true);
  });

  it('drops the oldest turns first, never the system prompt nor the last user request', () => {
    const messages = [system, u(1), a(1), u(2), a(2), u(3), a(3), u(4)];
    const fit = fitConversation(messages, 1000, { estimate, maxTokens: 500 });
    assert.deepEqual(fit.messages, [system, u(3), a(3), u(4)]);
    assert.equal(fit.dropped, 4);
    assert.equal(fit.maxTokens, 500);
  });

  it('drops a tool call together with its results', () => {
    const messages = [system, u(1), call('c1'), result('c1'), a(1), u(2)];
    const fit = fitConversation(messages, 700, { estimate, maxTokens: 400 });
    assert.deepEqual(fit.messages, [system, u(2)]);
    assert.ok(!fit.messages.some((m) => m.role === 'tool'));
  });

  it('in an agent loop on the current request, drops older tool rounds but keeps the latest', () => {
    const messages = [system, u(1), call('c1'), result('c1'), call('c2'), result('c2'), call('c3'), result('c3')];
    const fit = fitConversation(messages, 900, { estimate, maxTokens: 400 });
    assert.deepEqual(fit.messages, [system, u(1), call('c3'), result('c3')]);
  });

  it('returns the remaining budget and fits=false when even the pinned messages leave too little', () => {
    const messages = [system, u(1), a(1), u(2)];
    const tight = fitConversation(messages, 450, { estimate, maxTokens: 1024, minOutputTokens: 100 });
    assert.deepEqual(tight.messages, [system, u(2)]);
    assert.equal(tight.maxTokens, 250);
    assert.equal(tight.fits, true);
    const over = fitConversation(messages, 150, { estimate, minOutputTokens: 100 });
    assert.equal(over.maxTokens, 0);
    assert.equal(over.fits, false);
  });

  it('counts tool definitions against the prompt', () => {
    const tools = [{ type: 'function' as const, function: { name: 'x'.repeat(300) } }];
    const fit = fitConversation([u(1)], 10_000, { estimate, tools });
    assert.ok(fit.promptTokens > 100);
  });

  it('has a documented default estimate: chars/3 + 4 per message, 768 per image', () => {
    assert.equal(estimateMessageTokens({ role: 'user', content: 'x'.repeat(30) }), 14);
    assert.equal(
      estimateMessageTokens({ role: 'user', content: [{ type: 'text', text: 'abc' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } }] }),
      4 + 1 + 768,
    );
  });
});
