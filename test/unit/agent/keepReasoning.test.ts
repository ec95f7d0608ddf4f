import assert from 'node:assert/strict';
import { runAgent, type AgentModelClient, type AgentTool } from '../../../src/core/agent';
import type { ChatStream } from '../../../src/core/inference/chat/chat';
import type { ChatRequest, ChatResult } from '../../../src/core/inference/chat/types';
import type { FetchInit } from '../../../src/core/http/types';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { keepsReasoningBetweenRounds } from '../../../src/core/inference/models/reasoningEffort';
import { useSandbox } from '../sandbox/helpers';

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

describe('agent loop: reasoning between tool rounds, against the sandbox\'s reasoning models (the family rule decides)', () => {
  const sb = useSandbox();
  let client: InferenceClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  /** The assistant messages of the second round's request, after one tool round. */
  const secondRound = async (model: string, keep = keepsReasoningBetweenRounds(model)): Promise<Array<{ reasoning_content?: string }>> => {
    const bodies: string[] = [];
    client = createInferenceClient({
      baseUrl: sb().inferenceUrl,
      apiKey: () => Promise.resolve(sb().credentials.apiKey),
      retry: { attempts: 1 },
      fetch: (url: string, init: FetchInit) => {
        if (url.endsWith('/chat/completions')) bodies.push(String(init.body));
        return fetch(url, init);
      },
    });
    const outcome = await runAgent({ client, model, tools: [add], invoker, keepReasoning: keep, messages: [{ role: 'user', content: 'plan: add {"a": 2, "b": 3}' }] });
    assert.equal(outcome.status, 'answered');
    assert.equal(bodies.length, 2);
    return (JSON.parse(bodies[1] ?? '{}') as { messages: Array<{ role: string; reasoning_content?: string }> }).messages.filter((m) => m.role === 'assistant');
  };

  it('gpt-oss (harmony): the analysis behind the call goes back with it', async () => {
    const [assistant] = await secondRound('gpt-oss:20b-harmony');
    assert.equal(assistant?.reasoning_content, 'Answering from the script. The user needs add.');
  });

  it('qwen3 (reasoning_content): the reasoning the server sent is not sent back', async () => {
    const [assistant] = await secondRound('qwen3:8b');
    assert.ok(assistant);
    assert.equal(assistant.reasoning_content, undefined);
    // It did reason: kept against its family's rule, the same reasoning would have gone back.
    const [kept] = await secondRound('qwen3:8b', true);
    assert.equal(kept?.reasoning_content, 'The user needs add; calling it with the arguments given.');
  });
});
