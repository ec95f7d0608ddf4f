import * as assert from 'node:assert/strict';
import { parseAnswer } from '../../../src/core/nextEdit/answer';
import { windowEdits } from '../../../src/core/nextEdit/suggestion';
import { applyEdits } from '../../../src/core/nextEdit/text';
import { CURSOR_MARKER, editWindow, type EditWindow } from '../../../src/core/nextEdit/window';
import { assertLinearGrowth } from '../properties/growth';

const WIDE = { linesAbove: 50, linesBelow: 50, maxChars: 100_000 };

function windowOf(text: string, cursor = 0): EditWindow {
  const w = editWindow(text, cursor, WIDE);
  assert.ok(w);
  return w;
}

const FILE = 'function total(orders) {\n  let sum = 0;\n  for (const o of items) sum += o;\n  return sum;\n}';
const FIXED = FILE.replace('of items', 'of orders');

describe('core/nextEdit parseAnswer', () => {
  it('takes a plain answer as the rewritten window', () => {
    assert.equal(parseAnswer(FIXED, windowOf(FILE)), FIXED);
    assert.equal(parseAnswer(`${FIXED}\n`, windowOf(FILE)), FIXED, 'a final line break is the model\'s, not the window\'s');
  });

  it('takes the part between the window tags, dropping what is around them', () => {
    assert.equal(parseAnswer(`Sure.\n<window>\n${FIXED}\n</window>\nI renamed items.`, windowOf(FILE)), FIXED);
    assert.equal(parseAnswer(`<window>\n${FIXED}`, windowOf(FILE)), FIXED, 'an answer cut before the closing tag');
  });

  it('takes the inside of a fence, with chatter before and after it', () => {
    assert.equal(parseAnswer(`\`\`\`ts\n${FIXED}\n\`\`\``, windowOf(FILE)), FIXED);
    assert.equal(parseAnswer(`Here is the updated code:\n\`\`\`typescript\n${FIXED}\n\`\`\`\nThis renames the loop's array.`, windowOf(FILE)), FIXED);
  });

  it('drops a leading and a trailing chatter line around an unfenced answer', () => {
    assert.equal(parseAnswer(`Here is the code:\n${FIXED}\nHope this helps!`, windowOf(FILE)), FIXED);
  });

  it('removes an echoed cursor marker', () => {
    assert.equal(parseAnswer(FIXED.replace('let sum', `let ${CURSOR_MARKER}sum`), windowOf(FILE)), FIXED);
  });

  it('gives undefined for an empty or blank answer to a non-blank window', () => {
    assert.equal(parseAnswer('', windowOf(FILE)), undefined);
    assert.equal(parseAnswer('```\n\n```', windowOf(FILE)), undefined);
    assert.equal(parseAnswer('', windowOf('')), '', 'an empty window may stay empty');
  });

  it('answers in the document\'s line ends (CRLF), whatever the model used', () => {
    const crlf = FILE.replace(/\n/g, '\r\n');
    const w = windowOf(crlf);
    const parsed = parseAnswer(FIXED, w);
    assert.equal(parsed, FIXED.replace(/\n/g, '\r\n'));
    const edits = windowEdits(w, parsed ?? '');
    assert.deepEqual(edits.map((e) => [crlf.slice(e.start, e.end), e.newText]), [['item', 'order']], 'only the renamed word changes, not the line ends');
  });

  it('turns the model\'s spaces into the file\'s tabs (and tabs into spaces), so indentation is no change', () => {
    const tabbed = FILE.replace(/\n {2}/g, '\n\t');
    const w = windowOf(tabbed);
    const parsed = parseAnswer(FIXED.replace(/\n {2}/g, '\n    '), w, { tabSize: 4 });
    assert.equal(parsed, FIXED.replace(/\n {2}/g, '\n\t'));
    assert.equal(windowEdits(w, parsed ?? '').length, 1);
    const spaced = windowOf(FILE);
    assert.equal(parseAnswer(FIXED.replace(/\n {2}/g, '\n\t'), spaced), FIXED, 'a tab becomes the file\'s two-space unit');
  });

  it('puts back the window\'s indentation when the model dropped it', () => {
    const nested = FILE.split('\n').map((l) => `    ${l}`).join('\n');
    const parsed = parseAnswer(FIXED, windowOf(nested));
    assert.equal(parsed, FIXED.split('\n').map((l) => `    ${l}`).join('\n'));
  });

  it('keeps blank lines at the window\'s ends as many as the window has', () => {
    const text = '\nconst a = 1;\n';
    const w = windowOf(text);
    assert.equal(w.text, text);
    assert.equal(parseAnswer('\n\n\nconst a = 2;\n\n\n', w), '\nconst a = 2;\n');
  });

  it('a window at the start and at the end of the file: the edits rebuild the document', () => {
    const doc = `import { a } from './a';\n${'// filler\n'.repeat(30)}export const last = a;`;
    for (const cursor of [0, doc.length]) {
      const w = editWindow(doc, cursor, { linesAbove: 3, linesBelow: 3, maxChars: 1_000 });
      assert.ok(w);
      const rewritten = w.text.replace(/\ba\b/g, 'b');
      const parsed = parseAnswer(`\`\`\`\n${rewritten}\n\`\`\``, w);
      assert.equal(parsed, rewritten);
      const result = applyEdits(doc, windowEdits(w, parsed ?? ''));
      assert.equal(result, doc.slice(0, w.start) + rewritten + doc.slice(w.end));
    }
  });
});

describe('core/nextEdit parseAnswer: framing it does not know', () => {
  it('takes the fenced block after a chatter line no filter knows ("Updated window:"), never the chatter or the fence lines', () => {
    assert.equal(parseAnswer(`Updated window:\n\`\`\`ts\n${FIXED}\n\`\`\``, windowOf(FILE)), FIXED);
    assert.equal(parseAnswer(`I renamed the loop's array so it matches the parameter.\n\n~~~\n${FIXED}\n~~~\nThe rest is unchanged.`, windowOf(FILE)), FIXED);
    assert.equal(parseAnswer(`Updated window:\n\`\`\`ts\n${FIXED}`, windowOf(FILE)), FIXED, 'an answer cut before its closing fence');
  });

  it('a closing fence is a bare run of the opening fence\'s marker, at least as long', () => {
    const code = 'const md = `x`;\nconst y = 1;';
    assert.equal(parseAnswer(`Result:\n\`\`\`\`ts\n${code}\n\`\`\`ts\nstill code\n\`\`\`\`\nbye`, windowOf('const md = `x`;\nconst y = 2;')), `${code}\n\`\`\`ts\nstill code`);
  });

  it('a window that holds fences itself (Markdown): a fence after code is the code\'s own', () => {
    const md = '# Title\n\n```ts\nconst a = 1;\n```\n';
    const rewritten = '# Title\n\n```ts\nconst a = 2;\n```\n';
    assert.equal(parseAnswer(rewritten, windowOf(md)), rewritten);
  });

  it('stays linear on hostile answers: newline runs, fence runs, chatter words, backticks (8x the input costs about 8x)', () => {
    const w = windowOf(FILE);
    const shapes: Array<(n: number) => string> = [
      (n) => `${'\n'.repeat(n)}x`,
      (n) => `x${'\n \n'.repeat(n / 3)}let me know`,
      (n) => `x\n${'```\n'.repeat(n / 4)}`,
      (n) => `Updated window:\n${'`'.repeat(n / 2)}\n${'~'.repeat(n / 2)}`,
      (n) => `here is ${': '.repeat(n / 2)}x\n${FIXED}`,
      (n) => `${' \t'.repeat(n / 4)}\n${'  x\n'.repeat(n / 8)}`,
    ];
    for (const [k, shape] of shapes.entries()) assertLinearGrowth(shape, (answer) => parseAnswer(answer, w), 2_000, { label: `shape ${k}` });
  });
});
