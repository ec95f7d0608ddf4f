import * as assert from 'node:assert/strict';
import { InflightRequest, MAX_TYPED_AHEAD, RECEIVED_KEPT, ReceivedSuggestions, type Anchor } from '../../../src/core/inlineCompletion/speculation';

const at = (prefix: string, suffix = '\n}\n', documentId = 'file:///a.ts'): Anchor => ({ documentId, prefix, suffix });

describe('core/inlineCompletion speculation: suggestions kept for type-ahead, the request in flight', () => {
  it('serves every suggestion received that the typed text still agrees with, the most recent first, deduplicated', () => {
    const received = new ReceivedSuggestions();
    received.add(at('x = '), 'compute(a, b)', 1);
    received.add(at('x = comp'), 'ute(a, c)', 2);
    received.add(at('x = comp'), 'ute(a, c)', 3);
    assert.deepEqual(received.candidates(at('x = compute(a, ')), [{ text: 'c)', seq: 3 }, { text: 'b)', seq: 1 }]);
    assert.deepEqual(received.candidates(at('x = compute(a, b')), [{ text: ')', seq: 1 }]);
    assert.deepEqual(received.candidates(at('x = compute(a, ', '\n')), [], 'the text after the cursor changed');
    assert.deepEqual(received.candidates(at('x = compute(a, ', '\n}\n', 'file:///b.ts')), [], 'another document');
    received.clear();
    assert.deepEqual(received.candidates(at('x = compute(a, ')), []);
  });

  it('keeps the last RECEIVED_KEPT suggestions', () => {
    const received = new ReceivedSuggestions();
    for (let k = 0; k <= RECEIVED_KEPT; k++) received.add(at(`v${k} = `), 'one()', k);
    assert.deepEqual(received.candidates(at('v0 = o')), [], 'the oldest is gone');
    assert.deepEqual(received.candidates(at(`v${RECEIVED_KEPT} = o`)), [{ text: 'ne()', seq: RECEIVED_KEPT }]);
  });

  it('a request in flight covers the positions typed on from it until its text or a move contradicts them', () => {
    const request = new InflightRequest(at('x = '), { kind: 'single' }, Promise.resolve(undefined), 1);
    assert.equal(request.covers(at('x = co')), true, 'nothing streamed yet: it may still agree');
    request.follow(at('x = co'));
    assert.equal(request.streamedDelta('comp'), true);
    assert.equal(request.streamedDelta('ute'), true);
    assert.equal(request.covers(at('x = compx')), false, 'contradicted by the streamed text');
    assert.equal(request.covers(at('x =')), false, 'deleted before its position');
    assert.equal(request.covers(at('x = co', '\n')), false, 'an edit after the cursor');
    assert.equal(request.covers(at('x = compute\n')), false, 'a single-line answer cannot serve the next line');
    assert.equal(request.covers(at(`x = ${'c'.repeat(MAX_TYPED_AHEAD + 1)}`)), false, 'typed too far ahead');
    request.follow(at('x = cox'));
    assert.equal(request.streamedDelta('('), false, 'a delta that contradicts what was typed gives the request up');
    assert.equal(request.abandoned, true);
    assert.equal(request.signal.aborted, true, 'aborted: the server stops generating');
    assert.equal(request.covers(at('x = co')), false);
  });

  it('does not judge a fence or a chatter line (the answer proper has not started)', () => {
    const request = new InflightRequest(at('x = '), { kind: 'single' }, Promise.resolve(undefined), 1);
    request.follow(at('x = y'));
    assert.equal(request.streamedDelta('```ts\n'), true);
    const chatty = new InflightRequest(at('x = '), { kind: 'single' }, Promise.resolve(undefined), 2);
    chatty.follow(at('x = y'));
    assert.equal(chatty.streamedDelta('Here is'), true);
  });
});
