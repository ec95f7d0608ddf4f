import assert from 'node:assert/strict';
import { MAX_FINDINGS_PER_ANSWER, parseFindings } from '../../../src/core/review/findings';
import { assertLinearGrowth } from '../properties/growth';

const ONE = { file: 'src/cart.ts', line: 12, severity: 'error', category: 'bug', message: 'The total ignores the discount.', suggestion: 'Subtract the discount before returning.' };

describe('review findings parser', () => {
  it('reads a well-formed bare JSON array', () => {
    const parsed = parseFindings(JSON.stringify([ONE, { file: 'src/a.ts', line: 3, severity: 'info', message: 'Name is unclear.' }]));
    assert.deepEqual(parsed.findings, [
      { file: 'src/cart.ts', line: 12, severity: 'error', category: 'bug', message: 'The total ignores the discount.', suggestion: 'Subtract the discount before returning.' },
      { file: 'src/a.ts', line: 3, severity: 'info', message: 'Name is unclear.' },
    ]);
    assert.equal(parsed.skipped, 0);
    assert.equal(parsed.unreadable, false);
  });

  it('reads a fenced array with chatter around it, and several fences', () => {
    const answer = `Sure! Here is my review:\n\n\`\`\`json\n${JSON.stringify([ONE], null, 2)}\n\`\`\`\n\nAnd one more:\n\`\`\`\n[{"file":"b.ts","line":"7","severity":"HIGH","message":"SQL built from input."}]\n\`\`\`\nHope this helps.`;
    const parsed = parseFindings(answer);
    assert.deepEqual(parsed.findings.map((f) => [f.file, f.line, f.severity]), [['src/cart.ts', 12, 'error'], ['b.ts', 7, 'error']]);
    assert.equal(parsed.unreadable, false);
  });

  it('reads an unclosed fence (the answer was cut) and trailing commas', () => {
    const parsed = parseFindings('```json\n[\n  {"file": "a.ts", "line": 1, "message": "x is never read",},\n]\n');
    assert.deepEqual(parsed.findings, [{ file: 'a.ts', line: 1, severity: 'warning', message: 'x is never read' }]);
  });

  it('reads JSON lines between chatty lines, and an object with a findings list', () => {
    const lines = parseFindings('I found two things.\n{"path":"a.ts","line":2,"level":"warning","comment":"Off by one."}\nAlso:\n- {"file":"a.ts","startLine":9,"severity":"nit","description":"Typo."}\nThat is all.');
    assert.deepEqual(lines.findings.map((f) => [f.file, f.line, f.severity, f.message]), [['a.ts', 2, 'warning', 'Off by one.'], ['a.ts', 9, 'info', 'Typo.']]);
    const wrapped = parseFindings('{"findings": [{"file": "x.py", "line": 4, "severity": "low", "message": "Unused import.", "fix": "Remove it."}]}');
    assert.deepEqual(wrapped.findings, [{ file: 'x.py', line: 4, severity: 'info', message: 'Unused import.', suggestion: 'Remove it.' }]);
  });

  it('counts bad items as skipped and keeps the good ones', () => {
    const parsed = parseFindings(JSON.stringify([
      ONE,
      { line: 3, message: 'no file' },
      { file: 'a.ts', message: 'no line' },
      { file: 'a.ts', line: 3 },
      { file: 'a.ts', line: 3, message: 'unknown severity', severity: 'apocalyptic' },
      'just a string',
      42,
    ]));
    assert.equal(parsed.findings.length, 1);
    assert.equal(parsed.skipped, 6);
  });

  it('skips out-of-range lines: 0, negative, fractional, absurdly large, not a number', () => {
    const parsed = parseFindings(JSON.stringify([0, -4, 2.5, 1e12, 'twelve', '12abc'].map((line) => ({ file: 'a.ts', line, message: 'bad line' }))));
    assert.deepEqual(parsed.findings, []);
    assert.equal(parsed.skipped, 6);
    assert.equal(parsed.unreadable, false);
  });

  it('keeps endLine only when it is not before line', () => {
    const parsed = parseFindings(JSON.stringify([{ file: 'a.ts', line: 5, endLine: 8, message: 'm1' }, { file: 'a.ts', line: 5, endLine: 2, message: 'm2' }]));
    assert.equal(parsed.findings[0]?.endLine, 8);
    assert.equal(parsed.findings[1]?.endLine, undefined);
  });

  it('keeps one of duplicates (same file, line and message, case and spacing aside) and counts the rest', () => {
    const parsed = parseFindings(JSON.stringify([ONE, { ...ONE, severity: 'warning' }, { ...ONE, message: 'the  total IGNORES the discount.' }, { ...ONE, line: 13 }]));
    assert.equal(parsed.findings.length, 2);
    assert.equal(parsed.duplicates, 2);
  });

  it('says when an answer holds no JSON at all, and reads [] as no findings', () => {
    assert.deepEqual(parseFindings('The code looks fine to me.'), { findings: [], skipped: 0, duplicates: 0, unreadable: true });
    assert.deepEqual(parseFindings('```json\n[]\n```'), { findings: [], skipped: 0, duplicates: 0, unreadable: false });
    assert.equal(parseFindings('').unreadable, true);
  });

  it('cuts a looping answer at the per-answer limit (the rest counted as skipped)', () => {
    const many = Array.from({ length: MAX_FINDINGS_PER_ANSWER + 5 }, (_, i) => ({ file: 'a.ts', line: i + 1, message: `finding ${i}` }));
    const parsed = parseFindings(JSON.stringify(many));
    assert.equal(parsed.findings.length, MAX_FINDINGS_PER_ANSWER);
    assert.equal(parsed.skipped, 5);
  });

  it('never throws on hostile input', () => {
    for (const input of ['```', '```json\n{', '[{"file":', '{"findings": 3}', '[[[]]]', '\u0000\u0001', '{"file":"a","line":1,"message":{"x":1}}', 'x'.repeat(100_000)]) {
      const parsed = parseFindings(input);
      assert.ok(Array.isArray(parsed.findings));
    }
  });
});

describe('review findings parser: brackets in the prose', () => {
  const TWO = { file: 'src/a.ts', line: 3, severity: 'info', message: 'Name is unclear.' };
  const pretty = JSON.stringify([ONE, TWO], null, 2);

  it('an unfenced answer whose prose holds brackets: the array that parses is read, every finding kept', () => {
    for (const answer of [
      `Findings [2]:\n${pretty}`,
      `${pretty}\nLet me know [...] if you want more.`,
      `Findings [2]:\n${pretty}\nLet me know [...] if you want more.`,
      `See [the guide](https://example.test/guide) and arr[i].\n${JSON.stringify([ONE, TWO])}\nThat is all [end].`,
      `Review (2 findings) {summary below}:\n${pretty}\n{"note": "not a finding list"} and [1, 2]`,
    ]) {
      const parsed = parseFindings(answer);
      assert.equal(parsed.findings.length, 2, answer);
      assert.equal(parsed.unreadable, false, answer);
    }
  });

  it('an unfenced "no findings" with bracketed prose is an empty review, not an unreadable one', () => {
    const parsed = parseFindings('Findings [0]: none.\n[]\nLet me know [...] if you want more.');
    assert.deepEqual(parsed.findings, []);
    assert.equal(parsed.unreadable, false);
  });

  it('an unclosed "[{" in the prose does not swallow the array after it', () => {
    const parsed = parseFindings(`The bug is in \`items[{\` above.\n${pretty}`);
    assert.equal(parsed.findings.length, 2);
  });

  it('stays linear on hostile answers: nested and unclosed brackets, quotes, fences (8x the input costs about 8x)', () => {
    const shapes: Array<(n: number) => string> = [
      (n) => '[{'.repeat(n / 2),
      (n) => `${'[{"a":'.repeat(n / 6)}x${'}]'.repeat(n / 6)}`,
      (n) => '[{"a":"\\'.repeat(n / 8),
      (n) => `Findings ${'[1] '.repeat(n / 4)}`,
      (n) => `${'[{}] x '.repeat(n / 7)}`,
      (n) => `${'```\n['.repeat(n / 5)}`,
      (n) => `${'{"file":"a","line":1,\n'.repeat(n / 24)}`,
      (n) => `[${' '.repeat(n)}`,
    ];
    for (const [k, shape] of shapes.entries()) assertLinearGrowth(shape, parseFindings, 2_000, { label: `shape ${k}` });
  });
});
