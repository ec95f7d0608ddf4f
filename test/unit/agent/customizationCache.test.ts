import * as assert from 'node:assert/strict';
import { parseSkill, ParseCache } from '../../../src/core/agent/customization/index';

// Issue 40, item 3: diagnostics and every trusted @stratus turn parse the same files again and
// again; a parse is kept per version of the file's text.

describe('customization files: parses kept per file version', () => {
  it('the same text is parsed once; a changed text is parsed again; each file apart', () => {
    const cache = new ParseCache<ReturnType<typeof parseSkill>['skill']>();
    let parses = 0;
    const parse = (text: string) => {
      parses++;
      return parseSkill(text, 'a').skill;
    };
    const v1 = '---\nname: a\ndescription: first\n---\n';
    const v2 = '---\nname: a\ndescription: second\n---\n';
    assert.equal(cache.get('file:///w/.github/skills/a/SKILL.md', v1, parse)?.description, 'first');
    assert.equal(cache.get('file:///w/.github/skills/a/SKILL.md', v1, parse)?.description, 'first');
    assert.equal(parses, 1);
    assert.equal(cache.get('file:///w/.github/skills/a/SKILL.md', v2, parse)?.description, 'second');
    assert.equal(parses, 2);
    assert.equal(cache.get('file:///w/.claude/skills/a/SKILL.md', v2, parse)?.description, 'second');
    assert.equal(parses, 3, 'another file with the same text is its own entry');
  });

  it('keeps at most its limit, the least recently used leaving first', () => {
    const cache = new ParseCache<number>(2);
    let parses = 0;
    const parse = (text: string) => {
      parses++;
      return text.length;
    };
    cache.get('a', 'x', parse);
    cache.get('b', 'xx', parse);
    cache.get('a', 'x', parse); // a is now the most recent
    cache.get('c', 'xxx', parse); // b leaves
    assert.equal(cache.size, 2);
    assert.equal(parses, 3);
    cache.get('a', 'x', parse);
    assert.equal(parses, 3, 'a was kept');
    cache.get('b', 'xx', parse);
    assert.equal(parses, 4, 'b was parsed again');
  });
});
