import assert from 'node:assert/strict';
import { answerText, fileAnswer, fileCustomId, fileRequest, matchResults, openResults, readResults, submitBatchJob, textHash, waitForBatch, type Batch, type BatchRequest } from '../../../src/core/inference/batch';
import { assertLinearGrowth } from '../properties/growth';
import { startBatchRig, type BatchRig } from './helpers';

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
    assert.equal(answerText(body('``````')), '``````');
    assert.equal(answerText(body(null)), undefined);
    assert.equal(answerText({ choices: [] }), undefined);
    assert.equal(answerText('nope'), undefined);
  });

  it('hashes what was sent, so a file changed since is told apart', () => {
    assert.equal(textHash('a'), textHash('a'));
    assert.notEqual(textHash('a'), textHash('a\n'));
  });

  describe('a hostile answer is never offered over the file (issue 42 review)', () => {
    const body = (content: unknown): unknown => ({ choices: [{ message: { content } }] });
    const refused = (content: unknown, current: string): string | undefined => {
      const a = fileAnswer(body(content), current);
      return a.ok ? undefined : a.code;
    };
    const text = (content: unknown, current: string): string | undefined => {
      const a = fileAnswer(body(content), current);
      return a.ok ? a.text : undefined;
    };

    it('an empty or blank answer does not empty a file that has text (an empty file may stay empty)', () => {
      assert.equal(refused('', 'export const a = 1;\n'), 'empty_answer');
      assert.equal(refused(' \n\n\t', 'export const a = 1;\n'), 'empty_answer');
      assert.equal(refused('```ts\n```', 'export const a = 1;\n'), 'empty_answer');
      assert.equal(refused('<|end|>', 'export const a = 1;\n'), 'empty_answer');
      assert.equal(refused(null, 'x'), 'empty_answer');
      assert.equal(text('', ''), '');
    });

    it('chatter around one fenced block keeps the block; two blocks or a lone fence are not the file', () => {
      assert.equal(text('Here is the updated file:\n```ts\nexport const a = 2;\n```\nLet me know if you need more.', 'export const a = 1;\n'), 'export const a = 2;\n');
      assert.equal(refused('First:\n```ts\na\n```\nand\n```ts\nb\n```', 'a\n'), 'not_file_text');
      assert.equal(refused('Sure!\n```ts\nexport const a = 2;', 'export const a = 1;\n'), 'not_file_text');
      // A Markdown file with fences of its own keeps its fences.
      const md = '# Title\n\n```sh\nnpm test\n```\n';
      assert.equal(text('# Title\n\n```sh\nnpm run test\n```\n', md), '# Title\n\n```sh\nnpm run test\n```\n');
    });

    it('leaked chat-format tokens: trailing end tokens dropped, others refuse the answer unless the file holds them', () => {
      assert.equal(text('export const a = 2;\n<|end|>', 'export const a = 1;\n'), 'export const a = 2;\n');
      assert.equal(text('export const a = 2;\n<|return|>\n<|im_end|>  ', 'x\n'), 'export const a = 2;\n');
      assert.equal(refused('<|channel|>analysis<|message|>thinking<|end|><|start|>assistant<|channel|>final<|message|>export const a = 2;\n', 'export const a = 1;\n'), 'control_tokens');
      assert.equal(refused('a\n<|end|>\nb\n', 'a\n'), 'control_tokens');
      const tokenizer = "const END = '<|end|>';\n";
      assert.equal(text("const END = '<|end|>'; // the end token\n", tokenizer), "const END = '<|end|>'; // the end token\n");
    });

    it('a diff instead of the file, or binary data, is refused', () => {
      assert.equal(refused('--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-export const a = 1;\n+export const a = 2;\n', 'export const a = 1;\n'), 'not_file_text');
      assert.equal(refused('diff --git a/x b/x\n', 'x\n'), 'not_file_text');
      assert.equal(refused('abc\u0000\u0001def', 'abc\n'), 'binary_answer');
      const patch = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
      assert.equal(text(patch.replace('+b', '+c'), patch), patch.replace('+b', '+c'), 'a patch file may be rewritten as a patch');
    });

    it('a CRLF file keeps CRLF, a BOM in the answer is dropped, so an answer equal to the file is no change', () => {
      const crlf = 'line one\r\nline two\r\n';
      assert.equal(text('line one\nline two\n', crlf), crlf);
      assert.equal(text('\uFEFFline one\nline two\n', crlf), crlf);
      assert.equal(text('a\nb\n', 'a\nb\n'), 'a\nb\n');
    });

    it('linear on hostile answers: work at n and 8n stays proportional (growth harness: best of runs at n and 8n)', () => {
      const answers: Array<(n: number) => string> = [
        (n) => `x${'<|end|>'.repeat(n)}`,
        (n) => `x${' \n'.repeat(n)}<|end|>`,
        (n) => `x${'\n   '.repeat(n)}`,
        (n) => `x${'```\n'.repeat(n)}`,
        (n) => `Here:\n\`\`\`\n${'a\n'.repeat(n)}\`\`\`\nDone`,
        (n) => `x${'<|'.repeat(n)}`,
      ];
      for (const make of answers) {
        assertLinearGrowth(make, (content) => fileAnswer(body(content), 'x\n'), 2_000, { label: JSON.stringify(make(1)) });
      }
    });
  });
});

describe('prompt over files: an answer matches only the request it answers (issue 42 review)', () => {
  let rig: BatchRig;
  beforeEach(async () => {
    rig = await startBatchRig({ profile: 'contract', batchStepMs: 60_000, retry: { attempts: 1 } });
  });
  afterEach(() => rig.close());

  const model = 'gpt-oss:120b';
  const file = (i: number, uri: string, text: string, instruction = 'Add JSDoc'): { customId: string; request: BatchRequest } => {
    const customId = fileCustomId(i, { model, instruction, uri, sentHash: textHash(text) });
    return { customId, request: fileRequest({ customId, instruction, path: uri.split('/').pop() ?? uri, text, model }) };
  };

  it('the results file of another job (a retry of other files, an output_file_id pointing elsewhere) matches none of this job, over real HTTP', async () => {
    // Job A: a.ts then b.ts. Job B (the retry of b.ts alone): b.ts is its first file.
    const jobA = [file(0, 'file:///w/src/a.ts', 'export const a = 1;\n'), file(1, 'file:///w/src/b.ts', 'export const b = 1;\n')];
    const jobB = [file(0, 'file:///w/src/b.ts', 'export const b = 1;\n')];
    const sent = await submitBatchJob(rig.transport, jobA.map((f) => f.request), { endpoint: '/v1/chat/completions', tmpDir: rig.tmp, name: 'a' });
    assert.equal(sent.error, undefined);
    const final = await waitForBatch(rig.transport, (sent.parts[0] as { batch: Batch }).batch.id, { sleep: rig.sleep, initialDelayMs: 60_000 });
    assert.ok(final.outputFileId);
    const matched: string[] = [];
    const summary = await matchResults(
      jobB.map((f) => f.customId),
      readResults(await openResults(rig.transport, final.outputFileId)),
      (r) => void matched.push(r.customId),
    );
    assert.deepEqual(matched, [], "no answer of job A is taken for job B's file (a.ts's answer was matched to b.ts with `file-0`)");
    assert.equal(summary.unexpected, 2);
    assert.deepEqual(summary.missing, [jobB[0]?.customId]);
    // Its own results still match.
    const own = await matchResults(jobA.map((f) => f.customId), readResults(await openResults(rig.transport, final.outputFileId)));
    assert.equal(own.succeeded, 2);
  });

  it('a custom_id differs by file, text sent, instruction and model, stays in the custom_id limit, and is the same for the same request', () => {
    const base = { model, instruction: 'x', uri: 'file:///w/a.ts', sentHash: textHash('a') };
    const id = fileCustomId(0, base);
    assert.equal(fileCustomId(0, { ...base }), id);
    for (const other of [{ ...base, uri: 'file:///w/b.ts' }, { ...base, sentHash: textHash('b') }, { ...base, instruction: 'y' }, { ...base, model: 'm' }]) assert.notEqual(fileCustomId(0, other), id);
    assert.notEqual(fileCustomId(1, base), id);
    assert.match(id, /^file-0-[0-9a-f]{24}$/);
  });
});
