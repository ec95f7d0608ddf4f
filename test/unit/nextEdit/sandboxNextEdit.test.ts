import * as assert from 'node:assert/strict';
import { createClock } from '@sinonjs/fake-timers';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { EditHistory, NextEditEngine, type NextEditResult } from '../../../src/core/nextEdit';
import { startSandbox, type Sandbox } from '../../sandbox/index';
import { lastRename, nextEditAnswer } from '../../sandbox/inference/nextEditScript';

const ID = 'file:///ws/src/scale.ts';
const MODEL = 'qwen3-coder:30b';
const SCALE = 'function scale(count: number): number {\n  const doubled = count * 2;\n  return doubled + count;\n}\n';

describe('sandbox: next-edit prompts (the rename script)', () => {
  it('finds the identifier a one-line hunk renamed, the last such hunk winning', () => {
    assert.deepEqual(lastRename('@@ -1,1 +1,1 @@\n-f(count, count)\n+f(total, total)\n'), { from: 'count', to: 'total' });
    assert.deepEqual(lastRename('@@ -1,1 +1,1 @@\n-let a = 1\n+let b = 1\n@@ -4,1 +4,1 @@\n-x(y)\n+x(z)\n'), { from: 'y', to: 'z' });
    assert.equal(lastRename('@@ -1,1 +1,1 @@\n-let a = 1\n+let b = 2\n'), undefined, 'more than a rename');
    assert.equal(lastRename('@@ -1,1 +1,2 @@\n-a\n+b\n+c\n'), undefined, 'lines added');
  });

  it('answers the window with the next use renamed, else unchanged; nothing for another prompt', () => {
    const prompt = (edits: string, window: string): string => `File: a.ts\n\nRecent edits (oldest first):\n<edits>\n${edits}</edits>\n\nThe window (lines 1-3):\n<window>\n${window}\n</window>\nLines after the window:\n<after>\n</after>`;
    const rename = '--- a.ts\n+++ a.ts\n@@ -1,1 +1,1 @@\n-f(count)\n+f(total)\n';
    assert.equal(nextEditAnswer(prompt(rename, 'f(total)<CURSOR>\nuse(count, count)\nuse(count)'), '<CURSOR>'), '<window>\nf(total)\nuse(total, total)\nuse(count)\n</window>');
    assert.equal(nextEditAnswer(prompt(rename, 'f(total)<CURSOR>\naccount(x)'), '<CURSOR>'), '<window>\nf(total)\naccount(x)\n</window>', 'whole words only');
    assert.equal(nextEditAnswer('const x = <CURSOR>', '<CURSOR>'), undefined);
  });

  describe('through the engine, over HTTP', () => {
    let sandbox: Sandbox;
    let client: InferenceClient;
    before(async () => {
      sandbox = await startSandbox({ port: 0 });
      client = createInferenceClient({ baseUrl: sandbox.inferenceUrl, apiKey: () => Promise.resolve(sandbox.credentials.apiKey), retry: { attempts: 1 } });
    });
    after(async () => {
      await client.close();
      await sandbox.close();
    });

    it('a renamed parameter: the suggestion is its next use, then (after accepting) the one after', async () => {
      const clock = createClock(0);
      const history = new EditHistory(() => clock.now);
      let text = SCALE;
      let version = 1;
      history.open(ID, 'src/scale.ts', text);
      const engine = new NextEditEngine({
        complete: (request, signal) => client.completeStream(request, { signal, purpose: 'nextEdit' }),
        model: () => ({ id: MODEL, maxModelLen: undefined }),
        history,
        documentNow: () => ({ version, text }),
        timers: clock,
        now: () => clock.now,
      });
      const edit = (offset: number, length: number, insert: string): void => {
        text = text.slice(0, offset) + insert + text.slice(offset + length);
        version += 1;
        history.change(ID, [{ offset, length, text: insert }]);
      };
      const suggest = async (cursor: number): Promise<NextEditResult> => {
        const pending = engine.suggest({ id: ID, version, languageId: 'typescript', relativePath: 'src/scale.ts', text, cursor });
        await clock.tickAsync(1_000);
        return pending;
      };
      const first = text.indexOf('count');
      edit(first, 5, 'total');
      const one = await suggest(first + 5);
      assert.equal(one.kind, 'suggestion', JSON.stringify(one));
      assert.ok(one.kind === 'suggestion');
      assert.equal(one.suggestion.jumpTo.line, 1);
      assert.deepEqual(one.suggestion.edits.map((e) => [e.oldText, e.newText]), [['count', 'total']]);
      const [accepted] = one.suggestion.edits;
      assert.ok(accepted);
      edit(accepted.start, accepted.end - accepted.start, accepted.newText);
      const two = await suggest(accepted.start + 5);
      assert.ok(two.kind === 'suggestion', JSON.stringify(two));
      assert.equal(two.suggestion.jumpTo.line, 2);
      edit(two.suggestion.edits[0]?.start ?? 0, 5, 'total');
      const three = await suggest(0);
      assert.deepEqual(three, { kind: 'none', reason: 'noOp' }, 'no use left: the window comes back unchanged');
    });

    /** A fresh engine over `source`, the first `count` renamed to `total`; the suggestion after it. */
    async function afterRename(source: string): Promise<NextEditResult> {
      const clock = createClock(0);
      const history = new EditHistory(() => clock.now);
      let text = source;
      let version = 1;
      history.open(ID, 'src/scale.ts', text);
      const engine = new NextEditEngine({
        complete: (request, signal) => client.completeStream(request, { signal, purpose: 'nextEdit' }),
        model: () => ({ id: MODEL, maxModelLen: undefined }),
        history,
        documentNow: () => ({ version, text }),
        timers: clock,
        now: () => clock.now,
      });
      const first = text.indexOf('count');
      text = `${text.slice(0, first)}total${text.slice(first + 5)}`;
      version += 1;
      history.change(ID, [{ offset: first, length: 5, text: 'total' }]);
      const pending = engine.suggest({ id: ID, version, languageId: 'typescript', relativePath: 'src/scale.ts', text, cursor: first + 5 });
      await clock.tickAsync(1_000);
      return pending;
    }

    it('a window holding special tokens: the suggestion is the rename alone, the tokens kept (issue 40)', async () => {
      const source = 'function scale(count: number): number {\n  const stop = ["<|end|>", "<|return|>", "<|call|>", "<|endoftext|>", "<|eot_id|>"];\n  const doubled = count * 2;\n  return doubled + count;\n}\n';
      const result = await afterRename(source);
      assert.ok(result.kind === 'suggestion', JSON.stringify(result));
      assert.deepEqual(result.suggestion.edits.map((e) => [e.oldText, e.newText]), [['count', 'total']]);
    });

    it('an answer whose <think> never closed (the window echoed "<think>"): no suggestion (issue 40)', async () => {
      const source = 'function scale(count: number): number {\n  const doubled = count * 2;\n  const tag = "<think>";\n  return doubled + count;\n}\n';
      assert.deepEqual(await afterRename(source), { kind: 'none', reason: 'thinkingOpen' });
    });
  });
});
