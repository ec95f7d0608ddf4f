import assert from 'node:assert/strict';
import { MAX_INSTRUCTION_CHARS, parseEditArgs } from '../../../src/core/edit';
import { boundedExcerpt, explainCodeQuery, explainDiagnosticQuery, fenced, fixInstruction, generateTestsQuery, MAX_EXCERPT_LINES } from '../../../src/features/quickFix/prompts';

const excerpt = { path: 'src/cart.ts', languageId: 'typescript', firstLine: 9, text: 'function total(items) {\n  return items.reduce((a, b) => a + b.price);\n}' };

describe('quick fixes: instructions and chat queries', () => {
  it('gives the edit command the diagnostic\'s own message, with its source and code', () => {
    assert.equal(fixInstruction({ message: "Type 'string' is not assignable to type 'number'.", source: 'ts', code: '2322', severity: 'error' }), "Fix this error reported by ts (2322): Type 'string' is not assignable to type 'number'.");
    assert.equal(fixInstruction({ message: ' Unused variable x ', source: undefined, code: 'no-unused-vars', severity: 'warning' }), 'Fix this warning (no-unused-vars): Unused variable x');
    assert.equal(fixInstruction({ message: 'Bad.', source: 'lint', code: undefined, severity: 'hint' }), 'Fix this hint reported by lint: Bad.');
  });

  it('cuts a long message to an instruction the edit command accepts', () => {
    const long = fixInstruction({ message: `Type '{ ${'field: string; '.repeat(600)}}' is not assignable to type 'Order'.`, source: 'ts', code: '2322', severity: 'error' });
    assert.equal(long.length, MAX_INSTRUCTION_CHARS);
    assert.ok(long.startsWith("Fix this error reported by ts (2322): Type '{ field: string;") && long.endsWith('…'));
    assert.equal(parseEditArgs({ instruction: long }).instruction, long);
    const emoji = fixInstruction({ message: '😀'.repeat(MAX_INSTRUCTION_CHARS), source: undefined, code: undefined, severity: 'error' });
    assert.ok(emoji.length <= MAX_INSTRUCTION_CHARS && !/[\uD800-\uDBFF]…$/.test(emoji), 'no half surrogate pair before the ellipsis');
    const exact = 'x'.repeat(MAX_INSTRUCTION_CHARS - 'Fix this error: '.length);
    assert.equal(fixInstruction({ message: exact, source: undefined, code: undefined, severity: 'error' }), `Fix this error: ${exact}`);
  });

  it('explains a diagnostic to @stratus with its message, code, place and the code around it', () => {
    const query = explainDiagnosticQuery({ message: 'Missing initial value.\nreduce of empty array', source: 'eslint', code: 'array-callback', severity: 'warning', line: 10 }, excerpt);
    assert.equal(query, [
      '@stratus Explain this warning reported by eslint (array-callback) in `src/cart.ts` at line 11, why it happens and how to fix it:',
      '',
      '> Missing initial value.\n> reduce of empty array',
      '',
      'The code (lines 10-12):',
      '```typescript\nfunction total(items) {\n  return items.reduce((a, b) => a + b.price);\n}\n```',
    ].join('\n'));
  });

  it('asks @stratus to explain code, and to write tests into a new file through stratus_createFile', () => {
    assert.match(explainCodeQuery(excerpt), /^@stratus Explain what this code from `src\/cart\.ts` \(lines 10-12\) does, step by step:\n\n```typescript\n/);
    const tests = generateTestsQuery({ ...excerpt, text: 'x()', firstLine: 0 });
    assert.match(tests, /^@stratus Write unit tests for this code from `src\/cart\.ts` \(line 1\)\./);
    assert.match(tests, /create a new test file that follows them with the stratus_createFile tool/);
  });

  it('fences code that holds fences with a longer fence, and bounds a long excerpt', () => {
    assert.equal(fenced('a\n```\nb', 'md'), '````md\na\n```\nb\n````');
    const long = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
    const bounded = boundedExcerpt(long, 5);
    assert.equal(bounded.text.split('\n').length, MAX_EXCERPT_LINES + 1);
    assert.match(bounded.text, /\n… \(140 more lines\)$/);
    assert.equal(bounded.firstLine, 5);
  });
});
