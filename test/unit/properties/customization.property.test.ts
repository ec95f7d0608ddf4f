import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { fileLinks, inputArguments, parseAgentFile, parseCustomizationFrontMatter, parsePromptFile, parseSkill, resolveVariables, skillFileSegments } from '../../../src/core/agent/customization/index';
import { check, weirdString } from './harness';

// Prompt files, custom agents and skills come from a repository: any text, any front matter.

const line = fc.oneof(
  weirdString,
  fc.string({ maxLength: 40 }),
  fc.constantFrom('---', 'description: x', 'tools: [a, "b', 'tools:', '  - label: x', '    agent: y', '  - z', 'k: |', '  text', 'k: &a b', '${input:x}', '${selection}', '[a](../b.md)', '```', 'name: Bad Name', '\t- x'),
);
const file = fc.array(line, { maxLength: 30 }).map((lines) => lines.join('\n'));

describe('properties: customization files', () => {
  it('every parser returns a value with problems on lines of the file, never a throw', () => {
    check(
      fc.property(file, (text) => {
        const lineCount = text.split(/\r?\n/).length;
        const parsed = parseCustomizationFrontMatter(text);
        for (const p of parsed.problems) assert.ok(p.line >= 0 && p.line < lineCount, `problem line ${p.line} of ${lineCount}`);
        const prompt = parsePromptFile(text, 'p.prompt.md');
        const agent = parseAgentFile(text, 'a.agent.md');
        const skill = parseSkill(text, 'folder');
        for (const p of [...prompt.problems, ...agent.problems, ...skill.problems]) assert.ok(p.line >= 0 && p.line < lineCount, `${p.kind} on line ${p.line} of ${lineCount}`);
        for (const h of agent.handoffs) assert.ok(h.label !== '' && h.agent !== '');
        if (skill.skill) assert.match(skill.skill.name, /^[a-z0-9]+(-[a-z0-9]+)*$/);
        for (const link of fileLinks(text)) assert.ok(link.target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(link.target));
      }),
      400,
    );
  });

  it('variables: values are put in as given, never expanded again; arguments never throw', () => {
    check(
      fc.property(file, fc.string({ maxLength: 30 }), (text, value) => {
        const resolved = resolveVariables('${input:a}', { inputs: new Map([['a', value]]) });
        assert.equal(resolved.text, value);
        assert.doesNotThrow(() => inputArguments(text, ['a', 'b']));
        assert.doesNotThrow(() => resolveVariables(text, { inputs: new Map(), selection: value }));
      }),
      300,
    );
  });

  it('a skill file path is refused or stays inside the skill folder', () => {
    check(
      fc.property(fc.oneof(weirdString, fc.string({ maxLength: 30 }), fc.constantFrom('..', '../x', 'a/../..', '/x', 'C:\\x', './SKILL.md')), (path) => {
        const result = skillFileSegments(path);
        if (result.ok) assert.ok(result.segments.length > 0 && result.segments.every((s) => s !== '..' && s !== '' && s !== '.' && !s.includes('\\')), JSON.stringify(result));
      }),
      400,
    );
  });
});
