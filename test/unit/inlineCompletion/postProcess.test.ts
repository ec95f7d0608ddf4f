import * as assert from 'node:assert/strict';
import { decideMode } from '../../../src/core/inlineCompletion/mode';
import { postProcess } from '../../../src/core/inlineCompletion/postProcess';

function run(prefix: string, suffix: string, raw: string): string | undefined {
  return postProcess({ raw, prefix, suffix, mode: decideMode(prefix, suffix), marker: '<CURSOR>' });
}

describe('core/inlineCompletion postProcess (cases from real code)', () => {
  it('strips fences and chatter around a TypeScript line', () => {
    assert.equal(run('const total = items.', '', 'Here is the completion:\n```ts\nreduce((sum, x) => sum + x.price, 0);\n```'), 'reduce((sum, x) => sum + x.price, 0);');
    assert.equal(run('const total = items.', '', 'Sure! Here\'s the code:\nreduce((a, b) => a + b, 0);'), 'reduce((a, b) => a + b, 0);');
  });

  it('keeps only the first line in single-line mode and drops an echoed marker', () => {
    assert.equal(run('name = user.', '', 'strip()<CURSOR>\nprint(name)'), 'strip()');
  });

  it('drops a repeated line prefix', () => {
    assert.equal(run('    result := compute(', '', '    result := compute(ctx, input)'), 'ctx, input)');
  });

  it('drops what the rest of the line already has (suffix overlap)', () => {
    assert.equal(run('console.log(', ');', 'message, error);'), 'message, error');
    assert.equal(run('if err := run(', ') {', 'ctx) {'), 'ctx');
    assert.equal(run('const user = await fetchUser(', ')', 'id)'), 'id');
  });

  it('cuts at a closer that closes nothing open, or one the suffix already has', () => {
    assert.equal(run('x = compute(a, ', ')', 'b), extra]'), 'b');
    assert.equal(run('let n = 1', '', ' + 2) * 3'), ' + 2');
    assert.equal(run('foo(bar(', '', 'x))'), 'x))', 'closers of brackets open in the prefix are kept');
    assert.equal(run('items.map((x) => ', ')', 'x * 2))'), 'x * 2');
  });

  it('keeps a TypeScript block up to its closing brace, unless the editor already inserted it', () => {
    const prefix = 'export function add(a: number, b: number): number {';
    assert.equal(run(prefix, '', '\n  return a + b;\n}\n\nexport function sub() {}'), '\n  return a + b;\n}');
    assert.equal(run(prefix, '\n}', '\n  return a + b;\n}'), '\n  return a + b;');
  });

  it('keeps the indentation of a blank cursor line (Go) and re-indents a column-0 answer', () => {
    const prefix = 'func (s *Server) Close() error {\n\t';
    assert.equal(run(prefix, '\n}', '\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\treturn s.ln.Close()\n}'), 's.mu.Lock()\n\tdefer s.mu.Unlock()\n\treturn s.ln.Close()');
    assert.equal(run(prefix, '\n}', 's.mu.Lock()\ndefer s.mu.Unlock()\nreturn nil\n}'), 's.mu.Lock()\n\tdefer s.mu.Unlock()\n\treturn nil');
  });

  it('ends a Python block at the dedent', () => {
    const prefix = 'def mean(xs):\n    ';
    assert.equal(run(prefix, '', 'if not xs:\n        return 0.0\n    return sum(xs) / len(xs)\n\nprint(mean([1, 2]))'), 'if not xs:\n        return 0.0\n    return sum(xs) / len(xs)');
  });

  it('ends a doc comment after its closer', () => {
    assert.equal(run('/**', '\nexport function f() {}', '\n * Formats a price.\n */\nexport function f() {}'), '\n * Formats a price.\n */');
  });

  it('refuses whitespace-only suggestions and pure repetition of the suffix', () => {
    assert.equal(run('const a = 1;', '', '   \n  '), undefined);
    assert.equal(run('const a = ', '1;', '```\n\n```'), undefined);
    assert.equal(run('foo(', ');', ');'), undefined);
  });

  it('keeps brackets inside strings and comments out of the balance', () => {
    assert.equal(run('const re = ', '', "'(' + x; // )"), "'(' + x; // )");
    assert.equal(run('print(', ')', '"a)b"'), '"a)b"');
  });

  it('more real code: a Go error check, a Python docstring, a TypeScript object literal', () => {
    const goPrefix = 'func load(path string) ([]byte, error) {\n\tdata, err := os.ReadFile(path)\n\tif err != nil {';
    assert.equal(run(goPrefix, '\n\treturn data, nil\n}', '\n\t\treturn nil, fmt.Errorf("load %s: %w", path, err)\n\t}\n\treturn data, nil\n}'), '\n\t\treturn nil, fmt.Errorf("load %s: %w", path, err)\n\t}');
    const pyPrefix = 'def area(r: float) -> float:\n    """';
    assert.equal(run(pyPrefix, '\n    return math.pi * r * r\n', 'Return the area of a circle of radius r."""\n    return math.pi * r * r'), 'Return the area of a circle of radius r."""');
    const tsPrefix = 'const options: Options = {';
    assert.equal(run(tsPrefix, '\n};', '\n  retries: 3,\n  timeoutMs: 5_000,\n};'), '\n  retries: 3,\n  timeoutMs: 5_000,');
    assert.equal(run('class Counter {\n  #count = 0;\n  inc() { return this.#count', '', ' += 1; }'), ' += 1; }', '#private is code, not a comment');
  });

  it('drops a trailing chatter line', () => {
    assert.equal(run('total = ', '', 'sum(values)\nThis completes the assignment.'), 'sum(values)');
    assert.equal(run('def f():', '', '\n    return 1\n\nThis completes the function.'), '\n    return 1');
  });
});

describe('core/inlineCompletion postProcess: the editor\'s auto-closed closer (issue 31, item 7)', () => {
  it('a multi-line suggestion ending with the closer the editor already inserted keeps one closer', () => {
    assert.equal(run('const total = sum(', ');', '\n  prices,\n  taxes\n)'), '\n  prices,\n  taxes');
    assert.equal(run('const items = [', '];', '\n  1,\n  2,\n]'), '\n  1,\n  2,');
    assert.equal(run('const point = {', '}', '\n  x: 1,\n  y: 2\n}'), '\n  x: 1,\n  y: 2');
  });

  it('only the closer the rest of the cursor line starts with is dropped, on whatever line it comes', () => {
    assert.equal(run('function f() {\n  g(', ')\n}', 'a,\n    b)'), 'a,\n    b', 'g( is closed by the suffix');
    assert.equal(run('foo(bar(', '', 'x,\n  y))'), 'x,\n  y))', 'nothing in the suffix closes them');
  });
});

describe('core/inlineCompletion postProcess: an answer that only repeats the text before the cursor (issue 31, item 7)', () => {
  it('is not offered again', () => {
    assert.equal(run('function f() {\n  const total = sum(items);\n  ', '\n}', 'const total = sum(items);'), undefined);
    assert.equal(run('const a = compute(1);\nconst b = compute(2);\n', '', 'const a = compute(1);\nconst b = compute(2);'), undefined);
    assert.equal(run('function f() {\n  return 1;\n}', '', '\nfunction f() {\n  return 1;\n}'), undefined);
  });

  it('a short line (a closing brace) or one that continues the code is still offered', () => {
    assert.equal(run('if (a) {\n  if (b) {\n    run();\n  }\n', '', '}'), '}');
    assert.equal(run('const a = compute(1);\n', '', 'const b = compute(2);'), 'const b = compute(2);');
  });
});
