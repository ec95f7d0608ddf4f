import assert from 'node:assert/strict';
import { runAgent, type AgentModelClient, type AgentTool } from '../../../src/core/agent';
import type { ChatStream } from '../../../src/core/inference/chat/chat';
import type { ChatRequest, ChatResult } from '../../../src/core/inference/chat/types';

const add: AgentTool = { name: 'add', description: 'Add', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } };

function result(partial: Partial<ChatResult>): ChatResult {
  const text = partial.text ?? '';
  const toolCalls = partial.toolCalls ?? [];
  return {
    id: 'r', model: 'm', created: 1, text, thinking: partial.thinking ?? '', toolCalls, finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop', usage: undefined,
    message: { role: 'assistant', content: text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
    meta: { requestId: undefined, rateLimit: undefined } as unknown as ChatResult['meta'],
  };
}

/** A reasoning model: round 1 thinks and calls `add`, round 2 answers. Records every request. */
function reasoningModel(): AgentModelClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  const rounds = [
    result({ thinking: 'I should add 2 and 3 with the tool.', toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }] }),
    result({ text: 'It is 5.' }),
  ];
  return {
    requests,
    chatStream(request: ChatRequest): ChatStream {
      requests.push(structuredClone(request));
      const answer = rounds[requests.length - 1] ?? result({ text: 'done' });
      return { consume: async () => answer, [Symbol.asyncIterator]: () => { throw new Error('not used'); } } as ChatStream;
    },
  };
}

const invoker = { invoke: async () => ({ content: '5' }) };

describe('agent loop: reasoning between tool rounds (a per-family rule)', () => {
  it('by default (the contract), the reasoning is not sent back with the tool calls', async () => {
    const client = reasoningModel();
    const outcome = await runAgent({ client, model: 'deepseek-r1:70b', messages: [{ role: 'user', content: '2+3?' }], tools: [add], invoker });
    assert.equal(outcome.status, 'answered');
    const second = client.requests[1];
    const assistant = second?.messages.find((m) => m.role === 'assistant');
    assert.ok(assistant && 'tool_calls' in assistant && assistant.tool_calls?.length === 1);
    assert.equal((assistant as { reasoning_content?: string }).reasoning_content, undefined);
  });

  it('with keepReasoning (gpt-oss), the tool-calling message carries its reasoning in the next round', async () => {
    const client = reasoningModel();
    const outcome = await runAgent({ client, model: 'gpt-oss:120b', messages: [{ role: 'user', content: '2+3?' }], tools: [add], invoker, keepReasoning: true });
    assert.equal(outcome.status, 'answered');
    const assistant = client.requests[1]?.messages.find((m) => m.role === 'assistant');
    assert.equal((assistant as { reasoning_content?: string } | undefined)?.reasoning_content, 'I should add 2 and 3 with the tool.');
  });
});
