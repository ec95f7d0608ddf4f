import assert from 'node:assert/strict';
import { chat, useSandbox, user, type Completion } from './helpers';

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'days', 'unit'] },
  },
};
const listVms = { type: 'function', function: { name: 'list_vms', parameters: { type: 'object', properties: { verbose: { type: 'boolean' }, tags: { type: 'array' }, filter: { type: 'object' }, x: {} }, required: ['verbose', 'tags', 'filter', 'x'] } } };
const noParams = { type: 'function', function: { name: 'ping' } };

function message(body: unknown): Completion['choices'][number]['message'] {
  const choice = (body as Completion).choices[0];
  assert.ok(choice);
  return choice.message;
}

describe('sandbox inference: tool calls (non-streamed)', () => {
  const sb = useSandbox();

  it('auto: calls the tool named in the last user message (content null, finish_reason tool_calls)', async () => {
    const r = await chat(sb(), { messages: [user('Please use get_weather for Paris')], tools: [weather, listVms] });
    const body = r.json as Completion;
    assert.equal(body.choices[0]?.finish_reason, 'tool_calls');
    const msg = message(body);
    assert.equal(msg.content, null);
    assert.equal(msg.tool_calls?.length, 1);
    const call = msg.tool_calls?.[0];
    assert.match(call?.id ?? '', /^call_[0-9a-f]{24}$/);
    assert.equal(call?.type, 'function');
    assert.equal(call?.function.name, 'get_weather');
    // required params from the schema: string -> text after the name, integer -> 1, enum -> first value
    assert.deepEqual(JSON.parse(call?.function.arguments ?? ''), { city: 'for Paris', days: 1, unit: 'celsius' });
    assert.ok(body.usage.completion_tokens > 0);
  });

  it('a JSON object written in the message becomes the arguments', async () => {
    const r = await chat(sb(), { messages: [user('get_weather {"city": "Lyon", "days": 3}')], tools: [weather] });
    assert.deepEqual(JSON.parse(message(r.json).tool_calls?.[0]?.function.arguments ?? ''), { city: 'Lyon', days: 3 });
  });

  it('schema defaults for boolean, array, object and untyped params', async () => {
    const r = await chat(sb(), { messages: [user('run list_vms')], tools: [listVms] });
    assert.deepEqual(JSON.parse(message(r.json).tool_calls?.[0]?.function.arguments ?? ''), { verbose: true, tags: [], filter: {}, x: null });
  });

  it('several tools named: parallel calls in order of appearance, distinct ids', async () => {
    const r = await chat(sb(), { messages: [user('first list_vms then ping then get_weather')], tools: [weather, noParams, listVms] });
    const calls = message(r.json).tool_calls ?? [];
    assert.deepEqual(
      calls.map((c) => c.function.name),
      ['list_vms', 'ping', 'get_weather'],
    );
    assert.equal(new Set(calls.map((c) => c.id)).size, 3);
    assert.equal(calls[1]?.function.arguments, '{}');
  });

  it('a tool name must appear as a whole word (get_weather_now does not name get_weather)', async () => {
    const r = await chat(sb(), { messages: [user('call get_weather_now')], tools: [weather] });
    assert.equal(message(r.json).content, 'Echo (gpt-oss:120b): call get_weather_now');
  });

  it('no tool named: a plain text answer', async () => {
    const r = await chat(sb(), { messages: [user('hello there')], tools: [weather] });
    const body = r.json as Completion;
    assert.equal(body.choices[0]?.finish_reason, 'stop');
    assert.equal(message(body).content, 'Echo (gpt-oss:120b): hello there');
    assert.equal(message(body).tool_calls, undefined);
  });

  it('tool_choice "none" answers in text even when a tool is named', async () => {
    const r = await chat(sb(), { messages: [user('use get_weather')], tools: [weather], tool_choice: 'none' });
    assert.equal(message(r.json).content, 'Echo (gpt-oss:120b): use get_weather');
  });

  it('tool_choice "auto" behaves as the default', async () => {
    const r = await chat(sb(), { messages: [user('use ping')], tools: [noParams], tool_choice: 'auto' });
    assert.equal(message(r.json).tool_calls?.[0]?.function.name, 'ping');
  });

  it('a forced function is called even when not named', async () => {
    const r = await chat(sb(), { messages: [user('Berlin')], tools: [weather, noParams], tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    const calls = message(r.json).tool_calls ?? [];
    assert.equal(calls.length, 1);
    assert.deepEqual(JSON.parse(calls[0]?.function.arguments ?? ''), { city: 'Berlin', days: 1, unit: 'celsius' });
  });

  it('after the tool message the model answers with the tool result', async () => {
    const first = await chat(sb(), { messages: [user('use get_weather {"city":"Nice"}')], tools: [weather] });
    const call = message(first.json).tool_calls?.[0];
    assert.ok(call);
    const second = await chat(sb(), {
      messages: [
        user('use get_weather {"city":"Nice"}'),
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '{"temperature": 21}' },
      ],
      tools: [weather],
    });
    const body = second.json as Completion;
    assert.equal(body.choices[0]?.finish_reason, 'stop');
    assert.equal(message(body).content, 'Tool result (get_weather): {"temperature": 21}');
  });

  it('several tool results are all used, in order', async () => {
    const calls = [
      { id: 'call_a', type: 'function', function: { name: 'ping', arguments: '{}' } },
      { id: 'call_b', type: 'function', function: { name: 'list_vms', arguments: '{}' } },
    ];
    const r = await chat(sb(), {
      messages: [user('ping and list_vms'), { role: 'assistant', content: null, tool_calls: calls }, { role: 'tool', tool_call_id: 'call_a', content: 'pong' }, { role: 'tool', tool_call_id: 'call_b', content: '[]' }],
      tools: [noParams, listVms],
      tool_choice: { type: 'function', function: { name: 'ping' } },
    });
    assert.equal(message(r.json).content, 'Tool result (ping): pong\nTool result (list_vms): []');
  });
});
