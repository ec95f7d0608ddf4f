import * as assert from 'node:assert/strict';
import { buildEditPrompt, EditLineFilter, estimateEditCostEur, parseEditArgs, readHistory, rememberInstruction, SYSTEM_PROMPT, type EditPromptInput } from '../../../src/core/edit';
import { ValidationError } from '../../../src/core/errors';
import { tokens } from './docModel';

function input(overrides: Partial<EditPromptInput> = {}): EditPromptInput {
  return {
    instruction: 'rename value to amount',
    languageId: 'typescript',
    relativePath: 'src/money.ts',
    before: Array.from({ length: 100 }, (_, i) => `// before ${i}`),
    range: ['function f(value: number) {', '  return value;', '}'],
    after: Array.from({ length: 100 }, (_, i) => `// after ${i}`),
    startLine: 100,
    diagnostics: [{ line: 101, severity: 'error', message: "Type 'string' is not\nassignable.", source: 'ts' }],
    instructions: '',
    maxModelLen: 32_768,
    ...overrides,
  };
}

function filter(text: string, indent = '', trailing = 0): string[] {
  const f = new EditLineFilter(indent, trailing);
  const out: string[] = [];
  for (const t of tokens(text)) out.push(...f.push(t));
  return [...out, ...f.end()];
}

describe('core/edit prompt and budget', () => {
  it('carries the language, path, instruction, range, lines around it and its diagnostics', () => {
    const prompt = buildEditPrompt(input());
    const user = String(prompt.messages[1]?.content);
    assert.equal(prompt.messages[0]?.content, SYSTEM_PROMPT);
    assert.match(user, /File: src\/money\.ts \(typescript\)/);
    assert.match(user, /Instruction: rename value to amount/);
    assert.match(user, /<range>\nfunction f\(value: number\) \{\n {2}return value;\n\}\n<\/range>/);
    assert.match(user, /The range to rewrite \(lines 101-103\)/);
    assert.match(user, /\/\/ before 99\n<\/before>/, 'the nearest lines before come last');
    assert.match(user, /<after>\n\/\/ after 0\n/);
    assert.match(user, /- line 2 of the range: error: Type 'string' is not assignable\. \(ts\)/);
    assert.deepEqual(prompt.contextLines, { before: 40, after: 40 });
    assert.ok(prompt.maxTokens > 0 && prompt.promptTokens > 0);
  });

  it('adds the repository instructions to the system message when there are some', () => {
    const prompt = buildEditPrompt(input({ instructions: '## Repository instructions\nUse tabs.' }));
    assert.match(String(prompt.messages[0]?.content), /Use tabs\.$/);
  });

  it('keeps fewer lines of context when the model context is small', () => {
    const prompt = buildEditPrompt(input({ maxModelLen: 600 }));
    assert.ok(prompt.contextLines.before < 40 && prompt.contextLines.before > 0, JSON.stringify(prompt.contextLines));
    assert.ok(prompt.promptTokens + prompt.maxTokens <= 600);
  });

  it('refuses a range too large for max_model_len with its size and the limit', () => {
    const range = Array.from({ length: 2_000 }, (_, i) => `  const line${i} = compute(${i});`);
    assert.throws(() => buildEditPrompt(input({ range, maxModelLen: 8_192 })), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.param, 'range');
      assert.match(error.message, /The range is 2,000 lines/);
      assert.match(error.message, /context of 8,192 tokens \(max_model_len\)/);
      assert.match(error.message, /Select at most about \d+ lines/);
      return true;
    });
  });

  it('estimates the cost in EUR from the contract rates', () => {
    const eur = estimateEditCostEur({ promptTokens: 1_000_000, maxTokens: 128 });
    assert.equal(eur, 1.8, 'a million input tokens at 1.80 EUR, no expected output');
    assert.ok(Math.abs(estimateEditCostEur({ promptTokens: 0, maxTokens: 128 + 1_500_000 }) - 8) < 1e-9, 'a million output tokens at 8 EUR');
  });
});

describe('core/edit post-processing (EditLineFilter)', () => {
  it('strips a fence around the code', () => {
    assert.deepEqual(filter('```ts\nconst a = 1;\nconst b = 2;\n```'), ['const a = 1;', 'const b = 2;']);
  });

  it('drops a chatty line before and an explanation after the fence', () => {
    assert.deepEqual(filter("Sure! Here's the code:\n\n```python\nx = 1\n```\n\nThis sets x."), ['x = 1']);
  });

  it('keeps plain code as it is, a blank line inside it included', () => {
    assert.deepEqual(filter('a()\n\nb()\n'), ['a()', '', 'b()']);
  });

  it('drops blank lines after the code unless the range ended with as many', () => {
    assert.deepEqual(filter('a()\n\n\n'), ['a()']);
    assert.deepEqual(filter('a()\n\n\n', '', 1), ['a()', '']);
  });

  it("moves code the model dedented back onto the range's indentation", () => {
    assert.deepEqual(filter('if (a) {\n  b();\n}', '    '), ['    if (a) {', '      b();', '    }']);
    assert.deepEqual(filter('      deeper();\n    back();', '    '), ['      deeper();', '    back();'], 'a rewrite that starts deeper is left as it is');
  });

  it('holds back the line in progress while it could be chatter or a fence', () => {
    const f = new EditLineFilter('');
    f.push('Here');
    assert.equal(f.partial(), undefined);
    f.push(' is the code:\n');
    f.push('``');
    assert.equal(f.partial(), undefined);
    f.push('`\ncon');
    assert.equal(f.partial(), 'con');
  });
});

describe('core/edit command arguments and history', () => {
  it('accepts nothing, or the documented shape', () => {
    assert.deepEqual(parseEditArgs(undefined), {});
    assert.deepEqual(parseEditArgs(null), {});
    const args = { uri: 'file:///a.ts', range: { start: { line: 1, character: 0 }, end: { line: 3, character: 2 } }, instruction: ' Fix it ', version: 7 };
    assert.deepEqual(parseEditArgs(args), { ...args, instruction: 'Fix it' });
  });

  it('refuses bad shapes with the field named', () => {
    const bad: [unknown, RegExp][] = [
      ['fix', /must be an object/],
      [{ uri: 3 }, /uri must be/],
      [{ range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } } }, /range\.start\.line must be a whole number/],
      [{ range: { start: { line: 2, character: 0 }, end: { line: 1, character: 0 } } }, /range\.end is before range\.start/],
      [{ range: { start: { line: 1.5, character: 0 }, end: { line: 2, character: 0 } } }, /range\.start\.line/],
      [{ range: 'all' }, /range must be an object/],
      [{ instruction: '   ' }, /instruction must be a non-empty string/],
      [{ instruction: 'x'.repeat(5_000) }, /longer than 4000/],
      [{ version: -1 }, /version must be a whole number/],
      [{ version: '3' }, /version must be a whole number/],
    ];
    for (const [value, message] of bad) assert.throws(() => parseEditArgs(value), (e: unknown) => e instanceof ValidationError && message.test(e.message), JSON.stringify(value).slice(0, 60));
  });

  it('remembers instructions most recent first, without duplicates, bounded', () => {
    let h: string[] = [];
    for (const i of ['a', 'b', 'a', 'c']) h = rememberInstruction(h, i, 3);
    assert.deepEqual(h, ['c', 'a', 'b']);
    assert.deepEqual(rememberInstruction(h, 'd', 3), ['d', 'c', 'a']);
    assert.deepEqual(readHistory(['x', 3, '', 'y']), ['x', 'y']);
    assert.deepEqual(readHistory('nope'), []);
  });
});
