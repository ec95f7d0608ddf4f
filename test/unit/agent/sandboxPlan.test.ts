import assert from 'node:assert/strict';
import { parsePlan } from '../../sandbox/inference/plan';
import { chat, useSandbox, user, type Completion } from '../sandbox/helpers';

const tool = (name: string): Record<string, unknown> => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } });
const TOOLS = [tool('read_file'), tool('run_task')];

function calls(body: unknown): { id: string; function: { name: string; arguments: string } }[] {
  return ((body as Completion).choices[0]?.message.tool_calls ?? []) as never;
}

describe('sandbox scripted model: multi-round plans', () => {
  const sb = useSandbox();

  it('parses rounds, parallel calls, raw arguments, ids, repeats and empty names', () => {
    assert.deepEqual(parsePlan('do this. plan: a {"x": "1;2&3"} & b ; <empty> {bad json} @k *2'), [
      [{ name: 'a', arguments: '{"x": "1;2&3"}' }, { name: 'b', arguments: '{}' }],
      [{ name: '', arguments: '{bad json}', id: 'k' }],
      [{ name: '', arguments: '{bad json}', id: 'k' }],
    ]);
    assert.equal(parsePlan('no plan here'), undefined);
  });

  it('round by round: call A, then B with A\'s result, then the answer', async () => {
    const prompt = user('plan: read_file {"path": "a.txt"} ; run_task {"note": "{{result}}"}');
    const first = await chat(sb(), { messages: [prompt], tools: TOOLS });
    const a = calls(first.json)[0];
    assert.equal(a?.function.name, 'read_file');
    assert.equal(a?.function.arguments, '{"path": "a.txt"}');
    const afterA = [prompt, { role: 'assistant', content: null, tool_calls: [{ ...a, type: 'function' }] }, { role: 'tool', tool_call_id: a?.id, content: 'line "1"\nline 2' }];
    const second = await chat(sb(), { messages: afterA, tools: TOOLS });
    const b = calls(second.json)[0];
    assert.equal(b?.function.name, 'run_task');
    assert.deepEqual(JSON.parse(b?.function.arguments ?? ''), { note: 'line "1"\nline 2' });
    const third = await chat(sb(), { messages: [...afterA, { role: 'assistant', content: null, tool_calls: [{ ...b, type: 'function' }] }, { role: 'tool', tool_call_id: b?.id, content: 'exit 0' }], tools: TOOLS });
    assert.equal((third.json as Completion).choices[0]?.message.content, 'Tool result (read_file): line "1"\nline 2\nTool result (run_task): exit 0');
  });

  it('plans need tools and tool_choice auto; a forced choice keeps the old rule', async () => {
    const none = await chat(sb(), { messages: [user('plan: read_file')], tools: TOOLS, tool_choice: 'none' });
    assert.equal((none.json as Completion).choices[0]?.message.content, 'Echo (gpt-oss:120b): plan: read_file');
    const forced = await chat(sb(), { messages: [user('plan: read_file')], tools: TOOLS, tool_choice: { type: 'function', function: { name: 'run_task' } } });
    assert.equal(calls(forced.json)[0]?.function.name, 'run_task');
  });

  it('"@x" fixes the call id (duplicates allowed, to script bad model output)', async () => {
    const r = await chat(sb(), { messages: [user('plan: read_file @x & run_task @x')], tools: TOOLS });
    assert.deepEqual(calls(r.json).map((c) => c.id), ['call_x', 'call_x']);
  });
});
