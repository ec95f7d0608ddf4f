import assert from 'node:assert/strict';
import { answerText, fileRequest, textHash } from '../../../src/core/inference/batch';

describe('prompt over files: requests and answers', () => {
  it('one chat request per file: instruction, path and text, a bounded answer, never streamed', () => {
    const r = fileRequest({ customId: 'file-0', instruction: 'Add JSDoc', path: 'src/a.ts', text: 'export const a = 1;\n', model: 'gpt-oss:120b' });
    assert.equal(r.customId, 'file-0');
    const body = r.body as { model: string; max_tokens: number; messages: Array<{ role: string; content: string }>; stream?: boolean };
    assert.equal(body.model, 'gpt-oss:120b');
    assert.ok(body.max_tokens > 0);
    assert.equal(body.stream, undefined);
    assert.match(body.messages[1]?.content ?? '', /Add JSDoc[\s\S]*src\/a\.ts[\s\S]*export const a = 1;/);
  });

  it('the new text of an answer: its content, without a fence wrapping all of it', () => {
    const body = (content: unknown): unknown => ({ choices: [{ message: { content } }] });
    assert.equal(answerText(body('export const a = 2;\n')), 'export const a = 2;\n');
    assert.equal(answerText(body('```ts\nexport const a = 2;\n```')), 'export const a = 2;\n');
    assert.equal(answerText(body('Here:\n```ts\nx\n```')), 'Here:\n```ts\nx\n```', 'a fence inside the answer is kept');
    assert.equal(answerText(body('``````')), '``````');
    assert.equal(answerText(body(null)), undefined);
    assert.equal(answerText({ choices: [] }), undefined);
    assert.equal(answerText('nope'), undefined);
  });

  it('hashes what was sent, so a file changed since is told apart', () => {
    assert.equal(textHash('a'), textHash('a'));
    assert.notEqual(textHash('a'), textHash('a\n'));
  });
});
