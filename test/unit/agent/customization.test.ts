import assert from 'node:assert/strict';
import {
  agentNameOf,
  fileLinks,
  inputArguments,
  parseAgentFile,
  parseCustomizationFrontMatter,
  parsePromptFile,
  parseSkill,
  promptInputs,
  promptNameOf,
  resolveToolNames,
  resolveVariables,
  skillFileSegments,
  skillsSection,
  TOOL_ALIASES,
  unknownVariables,
} from '../../../src/core/agent/customization/index';
import pkg from '../../../package.json';

const kinds = (problems: readonly { kind: string }[]): string[] => problems.map((p) => p.kind);

describe('customization files: front matter', () => {
  it('reads scalars, quoted values, flow and block lists, block scalars, and where the body starts', () => {
    const parsed = parseCustomizationFrontMatter([
      '---',
      'description: "Review the API: strictly" # a comment',
      "model: 'gpt-oss:120b'",
      'tools: [read, "search", \'edit\']',
      'other:',
      '  - one',
      '  - "two, three"',
      'long: >',
      '  folded',
      '  text',
      '---',
      'Body line.',
    ].join('\n'));
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.entries.get('description')?.value, 'Review the API: strictly');
    assert.equal(parsed.entries.get('model')?.value, 'gpt-oss:120b');
    assert.deepEqual(parsed.entries.get('tools')?.value, ['read', 'search', 'edit']);
    assert.deepEqual(parsed.entries.get('other')?.value, ['one', 'two, three']);
    assert.equal(parsed.entries.get('long')?.value, 'folded text');
    assert.equal(parsed.entries.get('tools')?.line, 3);
    assert.equal(parsed.body, 'Body line.');
    assert.equal(parsed.bodyLine, 11);
  });

  it('a file without front matter is all body, with no problem', () => {
    const parsed = parseCustomizationFrontMatter('Just a prompt.\n---\n');
    assert.equal(parsed.present, false);
    assert.equal(parsed.body, 'Just a prompt.\n---\n');
    assert.deepEqual(parsed.problems, []);
  });

  it('reports an unclosed front matter, bad lines, unclosed quotes, duplicates and unsupported YAML, each on its line', () => {
    assert.deepEqual(kinds(parseCustomizationFrontMatter('---\ndescription: x\nno end').problems), ['unclosed']);
    const parsed = parseCustomizationFrontMatter(['---', '  stray', 'description x', 'model: "open', 'model: a', 'tools: [a, "b]', 'ref: &anchor x', '---', ''].join('\n'));
    assert.deepEqual(parsed.problems.map((p) => [p.kind, p.line]), [['indented', 1], ['syntax', 2], ['unclosedQuote', 3], ['syntax', 5], ['unsupported', 6]]);
    assert.equal(parsed.entries.get('model')?.value, 'a');
    const dup = parseCustomizationFrontMatter('---\na: 1\na: 2\n---\n');
    assert.deepEqual(dup.problems.map((p) => [p.kind, p.line]), [['duplicate', 2]]);
    assert.equal(dup.entries.get('a')?.value, '1');
  });

  it('never throws on arbitrary input', () => {
    for (const text of ['', '---', '---\n---', '---\n:\n---', '---\n- a\n---', '---\nk: [\n---', `---\n${'x: y\n'.repeat(500)}`, '\uFEFF---\na: b\n---\nbody']) {
      assert.doesNotThrow(() => parseCustomizationFrontMatter(text));
    }
    assert.equal(parseCustomizationFrontMatter('\uFEFF---\na: b\n---\nbody').entries.get('a')?.value, 'b');
  });
});

describe('customization files: prompt files', () => {
  it('reads description, agent (or mode), model and tools; the name comes from the file', () => {
    const prompt = parsePromptFile('---\ndescription: Make a form\nmode: edit\nmodel: qwen3:30b\ntools: ["read", "edit"]\n---\nCreate ${input:formName:the form}.', 'make-form.prompt.md');
    assert.equal(prompt.name, 'make-form');
    assert.equal(prompt.description, 'Make a form');
    assert.equal(prompt.agent, 'edit');
    assert.equal(prompt.model, 'qwen3:30b');
    assert.deepEqual(prompt.tools, ['read', 'edit']);
    assert.equal(prompt.body, 'Create ${input:formName:the form}.');
    assert.deepEqual(prompt.problems, []);
    assert.equal(parsePromptFile('---\nagent: reviewer\nmode: ask\n---\n', 'x.prompt.md').agent, 'reviewer', 'agent wins over the older mode');
  });

  it('reports unknown keys and variables as warnings, a list where a text is needed as an error', () => {
    const prompt = parsePromptFile('---\ndescription: [a, b]\ncolour: blue\n---\nUse ${selection} and ${nonsense} and ${input:}.', 'p.prompt.md');
    assert.deepEqual(prompt.problems.map((p) => [p.kind, p.severity, p.line]), [['unknownKey', 'warning', 2], ['expectedText', 'error', 1], ['unknownVariable', 'warning', 4], ['unknownVariable', 'warning', 4]]);
    assert.equal(prompt.description, undefined);
  });

  it('names prompt files by their suffix only', () => {
    assert.equal(promptNameOf('a.prompt.md'), 'a');
    assert.equal(promptNameOf('A.PROMPT.MD'), 'A');
    assert.equal(promptNameOf('.prompt.md'), undefined);
    assert.equal(promptNameOf('a.md'), undefined);
  });
});

describe('customization files: variables', () => {
  it('lists inputs once, keeping a placeholder, and takes values from the chat line', () => {
    const body = 'Name ${input:name}, again ${input:name:your name}, kind ${input:kind}.';
    assert.deepEqual(promptInputs(body), [{ name: 'name', placeholder: 'your name' }, { name: 'kind', placeholder: undefined }]);
    const args = inputArguments('name="Ada Lovelace" kind=poet and then some text', ['name', 'kind']);
    assert.deepEqual([...args.values], [['name', 'Ada Lovelace'], ['kind', 'poet']]);
    assert.equal(args.rest, 'and then some text');
    assert.equal(inputArguments('other=1 text', ['name']).rest, 'other=1 text', 'an undeclared name=value is text');
  });

  it('fills inputs and context variables, says which were empty, leaves unknown ones as written', () => {
    const resolved = resolveVariables('A ${input:a} ${selection} ${selectedText} ${file} ${fileBasename} ${workspaceFolder} ${unknown} ${input:b}', {
      inputs: new Map([['a', 'one']]),
      selection: 'SEL',
      file: '/w/src/x.ts',
      fileBasename: 'x.ts',
    });
    assert.equal(resolved.text, 'A one SEL SEL /w/src/x.ts x.ts  ${unknown} ');
    assert.deepEqual(resolved.empty.sort(), ['input:b', 'workspaceFolder']);
    assert.deepEqual(unknownVariables('${file} ${nope}\n${input:x} ${file:x}').map((v) => [v.name, v.line]), [['nope', 0], ['file:x', 1]]);
  });

  it('a value holding ${...} is not expanded again', () => {
    assert.equal(resolveVariables('${input:a}', { inputs: new Map([['a', '${selection}']]), selection: 'secret' }).text, '${selection}');
  });
});

describe('customization files: links', () => {
  it('finds relative file links (decoded, without fragments), not URLs, anchors or links in code blocks', () => {
    const links = fileLinks([
      'See [the schema](../../api/schema.json#top) and ![img](img/a%20b.png).',
      '[web](https://example.com) [mail](mailto:a@b) [anchor](#part) [abs](/docs/x.md "title")',
      '```',
      '[in code](secret.txt)',
      '```',
      '[again](../../api/schema.json) [angle](<with space.md>)',
    ].join('\n'));
    assert.deepEqual(links, [
      { target: '../../api/schema.json', line: 0 },
      { target: 'img/a b.png', line: 0 },
      { target: '/docs/x.md', line: 1 },
      { target: 'with space.md', line: 5 },
    ]);
  });
});

describe('customization files: custom agents and handoffs', () => {
  const text = [
    '---',
    'description: Plans before coding',
    'tools: [read, search, stratus_getDiagnostics]',
    'model: qwen3:30b',
    'handoffs:',
    '  - label: Start implementation',
    '    agent: implementer',
    '    prompt: Implement the plan above.',
    '    send: true',
    '  - label: Review',
    '    agent: reviewer',
    '---',
    'You plan. You never edit files.',
  ].join('\n');

  it('reads description, tools, model, handoffs and the instructions; the name comes from the file', () => {
    const agent = parseAgentFile(text, 'planner.agent.md');
    assert.equal(agent.name, 'planner');
    assert.equal(agent.description, 'Plans before coding');
    assert.deepEqual(agent.tools, ['read', 'search', 'stratus_getDiagnostics']);
    assert.equal(agent.model, 'qwen3:30b');
    assert.deepEqual(agent.handoffs, [
      { label: 'Start implementation', agent: 'implementer', prompt: 'Implement the plan above.', send: true },
      { label: 'Review', agent: 'reviewer', prompt: '', send: false },
    ]);
    assert.equal(agent.instructions, 'You plan. You never edit files.');
    assert.deepEqual(agent.problems, []);
  });

  it('reports a handoff without label or agent, and a send that is not a boolean', () => {
    const agent = parseAgentFile('---\nhandoffs:\n  - label: Go\n  - agent: x\n    send: maybe\n  - plain\n---\n', 'a.agent.md');
    assert.deepEqual(agent.problems.map((p) => [p.kind, p.kind === 'handoffMissing' ? `${p.index}:${p.key}` : '']), [['handoffMissing', '1:agent'], ['handoffMissing', '2:label'], ['handoffMissing', '3:label']]);
    assert.deepEqual(agent.handoffs, []);
    assert.deepEqual(kinds(parseAgentFile('---\nhandoffs:\n  - label: a\n    agent: b\n    send: maybe\n---\n', 'a.agent.md').problems), ['expectedBoolean']);
    assert.deepEqual(kinds(parseAgentFile('---\nhandoffs: reviewer\n---\n', 'a.agent.md').problems), ['expectedList']);
  });

  it('names agents by .agent.md and the older .chatmode.md', () => {
    assert.equal(agentNameOf('planner.agent.md'), 'planner');
    assert.equal(agentNameOf('old.chatmode.md'), 'old');
    assert.equal(agentNameOf('x.md'), undefined);
    assert.equal(parseAgentFile('No front matter: all instructions.', 'plain.chatmode.md').tools, undefined, 'no tools list: all tools');
  });
});

describe('customization files: tool names', () => {
  const known = ['stratus_readFile', 'stratus_listFiles', 'stratus_searchWorkspace', 'stratus_proposeEdit', 'stratus_createFile', 'fetch_webpage'];
  it('takes tools by their name, aliases by the table (tool-set members too), and reports the rest', () => {
    const { allowed, unknown } = resolveToolNames(['stratus_readFile', 'Search', 'edit/editFiles', 'fetch_webpage', 'githubRepo', ''], known);
    assert.deepEqual([...allowed].sort(), ['fetch_webpage', 'stratus_createFile', 'stratus_listFiles', 'stratus_proposeEdit', 'stratus_readFile', 'stratus_searchWorkspace']);
    assert.deepEqual(unknown, ['githubRepo']);
    assert.equal(resolveToolNames([], known).allowed.size, 0, 'an empty list allows no tool');
  });

  it('every alias names tools Stratus contributes (or the to-do tool of plan mode)', () => {
    const contributed = new Set((pkg.contributes.languageModelTools as { name: string }[]).map((t) => t.name));
    for (const [alias, tools] of Object.entries(TOOL_ALIASES)) {
      for (const tool of tools) assert.ok(contributed.has(tool) || tool === 'stratus_todo', `${alias} -> ${tool}`);
    }
  });
});

describe('customization files: skills', () => {
  it('reads name and description; the body is not part of the skill', () => {
    const { skill, problems } = parseSkill('---\nname: pdf-forms\ndescription: Fill PDF forms with the pdf tools.\nlicense: MIT\n---\n# Secret body marker', 'pdf-forms');
    assert.deepEqual(problems, []);
    assert.deepEqual({ name: skill?.name, description: skill?.description }, { name: 'pdf-forms', description: 'Fill PDF forms with the pdf tools.' });
    assert.doesNotMatch(JSON.stringify(skill), /Secret body marker/);
  });

  it('refuses a skill without name or description, or with a bad name; warns when the name is not the folder', () => {
    assert.deepEqual(kinds(parseSkill('no front matter', 'x').problems), ['missing']);
    assert.equal(parseSkill('---\ndescription: d\n---\n', 'x').skill, undefined);
    assert.deepEqual(kinds(parseSkill('---\nname: x\n---\n', 'x').problems), ['missing']);
    assert.deepEqual(kinds(parseSkill('---\nname: Bad_Name\ndescription: d\n---\n', 'x').problems), ['badSkillName']);
    const mismatch = parseSkill('---\nname: other\ndescription: d\n---\n', 'folder');
    assert.deepEqual(kinds(mismatch.problems), ['nameMismatch']);
    assert.equal(mismatch.skill?.name, 'other');
    assert.deepEqual(kinds(parseSkill(`---\nname: x\ndescription: ${'d'.repeat(1100)}\n---\n`, 'x').problems), ['tooLong']);
  });

  it('the system-message section lists names and descriptions and names the tool', () => {
    assert.deepEqual(skillsSection([], 'stratus_readSkill'), { text: '', leftOut: [] });
    const { text: section } = skillsSection([{ name: 'a', description: 'Does A\nwell.' }], 'stratus_readSkill');
    assert.match(section, /stratus_readSkill/);
    assert.match(section, /- a: Does A well\./);
  });

  it('a skill file path stays inside the skill folder', () => {
    assert.deepEqual(skillFileSegments(''), { ok: true, segments: ['SKILL.md'] });
    assert.deepEqual(skillFileSegments('./reference/api.md'), { ok: true, segments: ['reference', 'api.md'] });
    for (const bad of ['../other/SKILL.md', 'a/../../x', '/etc/passwd', 'C:/x', 'a\\b']) assert.equal(skillFileSegments(bad).ok, false, bad);
  });
});
