import * as assert from 'node:assert/strict';
import { cutAtBlockEnd } from '../../../src/core/inlineCompletion/blockEnd';
import { decideMode } from '../../../src/core/inlineCompletion/mode';

describe('core/inlineCompletion mode and block end', () => {
  describe('decideMode', () => {
    it('is single-line in the middle of a line or with code after the cursor', () => {
      assert.deepEqual(decideMode('const total = items.', ''), { kind: 'single' });
      assert.deepEqual(decideMode('if (', 'x > 0) {'), { kind: 'single' });
      assert.deepEqual(decideMode('x = 1\n', ''), { kind: 'single' });
    });

    it('is multi-line after a line that opens a block (TypeScript, Python, Go)', () => {
      assert.deepEqual(decideMode('function add(a: number, b: number) {', ''), { kind: 'multi', reason: 'opensBlock', openIndent: 0, closer: '}' });
      assert.deepEqual(decideMode('class A:\n    def run(self):', '\n'), { kind: 'multi', reason: 'opensBlock', openIndent: 4 });
      assert.deepEqual(decideMode('func main() {', '}'), { kind: 'multi', reason: 'opensBlock', openIndent: 0, closer: '}' });
      assert.deepEqual(decideMode('  const xs = [ // items', ''), { kind: 'multi', reason: 'opensBlock', openIndent: 2, closer: ']' });
    });

    it('is multi-line on an empty line inside a block', () => {
      assert.deepEqual(decideMode('function f() {\n  ', '\n}'), { kind: 'multi', reason: 'emptyLineInBlock', openIndent: 0, closer: '}' });
      const body = 'def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    ';
      assert.deepEqual(decideMode(body, '\n'), { kind: 'multi', reason: 'emptyLineInBlock', openIndent: 0 });
      assert.deepEqual(decideMode('\tif err != nil {\n\t\treturn err\n\t}\n\t', '\n}'), { kind: 'single' }, 'no opener above at a lower indentation within a Go function seen from here');
      assert.deepEqual(decideMode('func f() error {\n\tx := 1\n\t', '\n}'), { kind: 'multi', reason: 'emptyLineInBlock', openIndent: 0, closer: '}' });
    });

    it('is multi-line after a doc-comment opener, unless it closes on the same line', () => {
      assert.deepEqual(decideMode('  /**', ''), { kind: 'multi', reason: 'docComment', openIndent: 2, closer: '*/' });
      assert.deepEqual(decideMode('def f():\n    """', ''), { kind: 'multi', reason: 'docComment', openIndent: 4, closer: '"""' });
      assert.deepEqual(decideMode('/** one line */', ''), { kind: 'single' });
      assert.deepEqual(decideMode('/**\n ', ''), { kind: 'multi', reason: 'docComment', openIndent: 0, closer: '*/' });
    });
  });

  describe('cutAtBlockEnd', () => {
    it('single-line: the first line break decides', () => {
      assert.deepEqual(cutAtBlockEnd('a + b', { kind: 'single' }, 'x = '), { text: 'a + b', closed: false });
      assert.deepEqual(cutAtBlockEnd('a + b;\nmore', { kind: 'single' }, 'x = '), { text: 'a + b;', closed: true });
    });

    it('a closing bracket line ends a block and is kept once complete', () => {
      const mode = decideMode('function f() {', '');
      assert.deepEqual(cutAtBlockEnd('\n  return 1;\n}', mode, 'function f() {'), { text: '\n  return 1;\n}', closed: false });
      assert.deepEqual(cutAtBlockEnd('\n  return 1;\n});\nafter()', mode, 'function f() {'), { text: '\n  return 1;\n});', closed: true });
    });

    it('a dedent ends a Python block before the dedented line', () => {
      const mode = decideMode('def f(x):', '');
      assert.deepEqual(cutAtBlockEnd('\n    return x\nprint(1)', mode, 'def f(x):'), { text: '\n    return x', closed: true });
    });

    it('on an empty line inside a block, the block closes at its closer', () => {
      const mode = decideMode('func f() {\n\t', '');
      assert.deepEqual(cutAtBlockEnd('x := 1\n\treturn\n}\nfunc g() {}', mode, '\t'), { text: 'x := 1\n\treturn\n}', closed: true });
    });

    it('a doc comment ends after its closer', () => {
      const mode = decideMode('  /**', '');
      assert.deepEqual(cutAtBlockEnd('\n   * Adds.\n   */\n  function', mode, '  /**'), { text: '\n   * Adds.\n   */', closed: true });
    });
  });
});
