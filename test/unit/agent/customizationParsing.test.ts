import assert from 'node:assert/strict';
import { MAX_LISTED_SKILLS, parseAgentFile, parseCustomizationFrontMatter, parsePromptFile, skillsSection, unknownVariables } from '../../../src/core/agent/customization/index';

const kinds = (problems: readonly { kind: string }[]): string[] => problems.map((p) => p.kind);
const agent = (frontMatter: readonly string[], body = 'Be brief.'): ReturnType<typeof parseAgentFile> => parseAgentFile(['---', ...frontMatter, '---', body].join('\n'), 'x.agent.md');

describe('customization files: `tools` fails closed', () => {
  it('a trailing comment after the flow list is read', () => {
    const file = agent(["tools: ['read', 'search']  # read-only"]);
    assert.deepEqual(file.tools, ['read', 'search']);
    assert.deepEqual(file.problems, []);
  });

  it('a flow list spread over lines is read, up to the line that closes it', () => {
    const file = agent(['tools: [', "  'read',", '  "search"', ']', 'model: m']);
    assert.deepEqual(file.tools, ['read', 'search']);
    assert.equal(file.model, 'm');
    assert.deepEqual(file.problems, []);
  });

  it('an unreadable `tools` gives no tool (never all) and says why', () => {
    const cases: Array<[string[], string]> = [
      [['tools: [read, search'], 'syntax'],
      [['tools: [read] extra'], 'syntax'],
      [['tools: [read, [search]]'], 'syntax'],
      [['tools: {read: true}'], 'unsupported'],
      [['tools: "read'], 'unclosedQuote'],
      [['tools:', '  - read', '  - name: search'], 'expectedList'],
    ];
    for (const [lines, kind] of cases) {
      const file = agent(lines);
      assert.deepEqual(file.tools, [], lines.join(' / '));
      assert.ok(kinds(file.problems).includes(kind), `${lines.join(' / ')}: ${kinds(file.problems).join(', ')}`);
    }
    const prompt = parsePromptFile('---\ntools: [read, search\ndescription: d\n---\nDo it.', 'x.prompt.md');
    assert.deepEqual(prompt.tools, []);
    assert.equal(prompt.description, 'd');
  });

  it('an unclosed front matter that names `tools` gives no tool; without a `tools` key, all', () => {
    assert.deepEqual(parseAgentFile('---\ntools: [read]\nBody', 'x.agent.md').tools, []);
    assert.equal(parseAgentFile('---\ndescription: d\nBody', 'x.agent.md').tools, undefined);
    assert.equal(agent(['description: d']).tools, undefined);
  });
});

describe('customization files: long front matter and common YAML layouts', () => {
  it('a front matter longer than 200 lines is closed where its --- is; its YAML is never the body', () => {
    const comments = Array.from({ length: 300 }, (_, k) => `# note ${k}`);
    const parsed = parseCustomizationFrontMatter(['---', 'description: d', ...comments, 'tools: [read]', '---', 'The body.'].join('\n'));
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.body, 'The body.');
    assert.equal(parsed.bodyLine, 304);
    assert.deepEqual(parsed.entries.get('tools')?.value, ['read']);
  });

  it('block list items at the key\'s own indentation', () => {
    const file = agent(['tools:', '- read', '- search', 'handoffs:', '- label: Implement', '  agent: agent', '  send: true', '- label: Review', '  agent: reviewer', 'model: m']);
    assert.deepEqual(file.problems, []);
    assert.deepEqual(file.tools, ['read', 'search']);
    assert.deepEqual(file.handoffs, [
      { label: 'Implement', agent: 'agent', prompt: '', send: true },
      { label: 'Review', agent: 'reviewer', prompt: '', send: false },
    ]);
    assert.equal(file.model, 'm');
  });

  it('a block scalar inside a handoff is reported as unsupported, never read as `|`', () => {
    const file = agent(['handoffs:', '  - label: Go', '    agent: agent', '    prompt: |', '      Implement the plan.', '      send: true', '    send: false']);
    assert.deepEqual(kinds(file.problems), ['unsupported']);
    assert.equal(file.problems[0]?.line, 4);
    assert.deepEqual(file.handoffs, [{ label: 'Go', agent: 'agent', prompt: '', send: false }]);
    const item = agent(['tools:', '  - >', '    read']);
    assert.deepEqual(kinds(item.problems), ['unsupported']);
    assert.deepEqual(item.tools, []);
  });
});

describe('customization files: unknown variables in a large body', () => {
  it('50,000 matches over 50,000 lines: each with its own line', () => {
    const body = '${a}\n'.repeat(50_000);
    const found = unknownVariables(body);
    assert.equal(found.length, 50_000);
    assert.deepEqual(found[0], { name: 'a', line: 0 });
    assert.deepEqual(found[49_999], { name: 'a', line: 49_999 });
    assert.ok(found.every((v, k) => v.line === k));
    assert.deepEqual(unknownVariables('x\n\n  ${b} ${c}\n${input:ok} ${d}'), [{ name: 'b', line: 2 }, { name: 'c', line: 2 }, { name: 'd', line: 3 }]);
  });
});

describe('customization files: the skills list within the instructions\' budget', () => {
  const many = (count: number, length: number): Array<{ name: string; description: string }> =>
    Array.from({ length: count }, (_, k) => ({ name: `skill-${k}`, description: `Skill ${k} ${'d'.repeat(length)}` }));
  const tokens = (text: string): number => Math.ceil(text.length / 3);

  it('whole when it fits; past MAX_LISTED_SKILLS the rest are left out with a note and named', () => {
    const small = skillsSection(many(3, 50), 'stratus_readSkill', 2_000);
    assert.deepEqual(small.leftOut, []);
    assert.match(small.text, /- skill-2: Skill 2 d{50}$/);
    const over = skillsSection(many(MAX_LISTED_SKILLS + 2, 5), 'stratus_readSkill');
    assert.deepEqual(over.leftOut, [`skill-${MAX_LISTED_SKILLS}`, `skill-${MAX_LISTED_SKILLS + 1}`]);
    assert.match(over.text, /\(2 more skill\(s\) are not listed/);
  });

  it('100 long descriptions in a small budget: shortened, then fewer skills, never over the budget', () => {
    for (const budget of [300, 1_000, 4_000, 20_000]) {
      const section = skillsSection(many(100, 1_000), 'stratus_readSkill', budget);
      assert.ok(tokens(section.text) <= budget, `${budget}: ${tokens(section.text)}`);
      const listed = section.text.split('\n').filter((l) => l.startsWith('- ')).map((l) => /^- ([^:]+):/.exec(l)?.[1]);
      assert.equal(listed.length + section.leftOut.length, 100, `${budget}: every skill is listed or left out`);
      if (section.leftOut.length > 0) assert.match(section.text, new RegExp(`\\(${section.leftOut.length} more skill\\(s\\) are not listed`));
    }
    assert.equal(skillsSection(many(100, 1_000), 'stratus_readSkill', 20_000).leftOut.length, 0, 'shortened descriptions fit them all');
    assert.match(skillsSection(many(100, 1_000), 'stratus_readSkill', 20_000).text, /- skill-0: Skill 0 d+…$/m);
    assert.deepEqual(skillsSection(many(2, 10), 'stratus_readSkill', 10), { text: '', leftOut: ['skill-0', 'skill-1'] }, 'no room at all: none');
  });
});
