import assert from 'node:assert/strict';
import { MARKDOWN_DEMO } from '../../sandbox/inference/script';
import { chat, infer, useSandbox, user, type Completion } from './helpers';


function content(body: unknown): string | null {
  return (body as Completion).choices[0]?.message.content ?? null;
}

describe('sandbox inference: chat completions (scripted model)', () => {
  const sb = useSandbox();

  it('echoes the last user message in a fixed template, with contract-exact fields', async () => {
    const r = await chat(sb(), { messages: [{ role: 'system', content: 'be brief' }, user('first'), { role: 'assistant', content: 'ok' }, user('Hello sandbox')] });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    const body = r.json as Completion;
    assert.match(body.id, /^chatcmpl-/);
    assert.equal(body.object, 'chat.completion');
    assert.ok(Number.isInteger(body.created));
    assert.equal(body.model, 'gpt-oss:120b');
    assert.deepEqual(Object.keys(body).sort(), ['choices', 'created', 'id', 'model', 'object', 'usage']);
    assert.equal(body.choices.length, 1);
    assert.deepEqual(body.choices[0], { index: 0, message: { role: 'assistant', content: 'Echo (gpt-oss:120b): Hello sandbox' }, finish_reason: 'stop' });
    // tokens = ceil(chars/4): 34 chars -> 9; prompt = 4 messages x 4 + ceil(8/4)+ceil(5/4)+ceil(2/4)+ceil(13/4) = 16+2+2+1+4
    assert.deepEqual(body.usage, { prompt_tokens: 25, completion_tokens: 9, total_tokens: 34 });
  });

  it('is deterministic: the same request gives the same content', async () => {
    const a = await chat(sb(), { messages: [user('same')] });
    const b = await chat(sb(), { messages: [user('same')] });
    assert.equal(content(a.json), content(b.json));
  });

  it('"markdown demo" returns multi-paragraph Markdown with a fenced code block', async () => {
    const r = await chat(sb(), { messages: [user('Show me the markdown demo please')] });
    const text = content(r.json) ?? '';
    assert.equal(text, MARKDOWN_DEMO);
    assert.match(text, /```ts\n[\s\S]+\n```/);
    assert.ok(text.split('\n\n').length >= 4);
  });

  it('"long N" returns N numbered pieces', async () => {
    const r = await chat(sb(), { messages: [user('long 12')] });
    assert.equal(content(r.json), '1 2 3 4 5 6 7 8 9 10 11 12');
  });

  it('a reasoning model emits a <think> block when asked to think; others never do', async () => {
    const r = await chat(sb(), { model: 'qwen3:30b', messages: [user('think about it')] });
    assert.equal(content(r.json), '<think>\nThe user wrote 14 characters; planning a scripted answer.\n</think>\n\nEcho (qwen3:30b): think about it');
    const plain = await chat(sb(), { model: 'qwen3:30b', messages: [user('no reasoning here')] });
    assert.equal(content(plain.json), 'Echo (qwen3:30b): no reasoning here');
    const other = await chat(sb(), { model: 'gpt-oss:120b', messages: [user('think about it')] });
    assert.equal(content(other.json), 'Echo (gpt-oss:120b): think about it');
  });

  it('max_tokens cuts the reply to max_tokens*4 characters with finish_reason "length"', async () => {
    const r = await chat(sb(), { messages: [user('long 100')], max_tokens: 5 });
    const body = r.json as Completion;
    assert.equal(body.choices[0]?.finish_reason, 'length');
    assert.equal(body.choices[0]?.message.content, '1 2 3 4 5 6 7 8 9 10');
    assert.equal(body.usage.completion_tokens, 5);
  });

  it('the default max_tokens is 1024 (a long reply is cut there)', async () => {
    const r = await chat(sb(), { messages: [user('long 2000')] });
    const body = r.json as Completion;
    assert.equal(body.choices[0]?.finish_reason, 'length');
    assert.equal(body.usage.completion_tokens, 1024);
  });

  it('accepts every documented optional parameter inside its range', async () => {
    const r = await chat(sb(), {
      messages: [user('params')],
      stream: false,
      temperature: 2,
      top_p: 0,
      presence_penalty: -2,
      frequency_penalty: 2,
      max_tokens: 1,
      user: 'end-user-42',
      seed: 7,
    });
    assert.equal(r.status, 200);
  });

  it('model aliases resolve to the canonical id', async () => {
    const r = await chat(sb(), { model: 'gpt-oss-120b', messages: [user('alias')] });
    assert.equal((r.json as Completion).model, 'gpt-oss:120b');
  });

  it('/v1/completions takes the same body and answers the same response shape', async () => {
    const viaChat = await infer(sb(), '/chat/completions', { model: 'gpt-oss:120b', messages: [user('same shape')] });
    const viaCompletions = await infer(sb(), '/completions', { model: 'gpt-oss:120b', messages: [user('same shape')] });
    assert.equal(viaCompletions.status, 200);
    const a = viaChat.json as Completion;
    const b = viaCompletions.json as Completion;
    assert.equal(b.object, 'chat.completion');
    assert.deepEqual(b.choices, a.choices);
    assert.deepEqual(b.usage, a.usage);
  });

  it('an OCR model describes attached images', async () => {
    const r = await chat(sb(), {
      model: 'deepseek-ocr:3b',
      messages: [user([{ type: 'text', text: 'read this' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } }])],
    });
    assert.equal(content(r.json), 'Echo (deepseek-ocr:3b): read this\n[image 1: image/jpeg, 6 bytes]');
  });
});

describe('sandbox inference: chat completions, production profile', () => {
  const sb = useSandbox({ profile: 'production' });

  it('adds unknown extra fields and reasoning_tokens to usage', async () => {
    const r = await chat(sb(), { model: 'qwen3:30b', messages: [user('think')] });
    const body = r.json as Completion;
    assert.equal(body.system_fingerprint, 'fp_sandbox');
    assert.ok('prompt_logprobs' in body);
    assert.ok('logprobs' in (body.choices[0] ?? {}));
    assert.equal(typeof body.usage.reasoning_tokens, 'number');
    assert.ok((body.usage.reasoning_tokens ?? 0) > 0);
    assert.deepEqual(body.usage.completion_tokens_details, { reasoning_tokens: body.usage.reasoning_tokens });
  });
});
