import assert from 'node:assert/strict';
import { runAgent, withoutReasoning, type AgentModelClient, type AgentTool } from '../../../src/core/agent';
import { planCompaction } from '../../../src/core/agent/compaction/index';
import { requestCeiling } from '../../../src/core/agent/turnBudget';
import type { ChatStream } from '../../../src/core/inference/chat/chat';
import type { ChatMessage, ChatRequest, ChatResult } from '../../../src/core/inference/chat/types';
import { estimateMessageTokens, fitConversation } from '../../../src/core/inference/index';

// Issue 40, item 4: gpt-oss's reasoning kept between tool rounds (`reasoning_content`) is sent with
// the request, so everything that sizes a request counts it; and it stays within its turn.

/** ~61k tokens of reasoning (the estimate's 3 characters a token), as the review measured. */
const REASONING = 'Let me think about which file to read next. '.repeat(4_200);

function conversation(): ChatMessage[] {
  return [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the failing test.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }], reasoning_content: REASONING },
    { role: 'tool', tool_call_id: 'c1', content: 'export const a = 1;' },
  ];
}

describe('reasoning kept between tool rounds: counted wherever a request is sized, kept within its turn (issue 40)', () => {
  const reasoningTokens = Math.ceil(REASONING.length / 3);

  it('the message estimate counts reasoning_content', () => {
    const [, , assistant] = conversation();
    assert.ok(assistant && estimateMessageTokens(assistant) >= reasoningTokens, `${assistant && estimateMessageTokens(assistant)} < ${reasoningTokens}`);
  });

  it('the cost cap ceiling of a request counts it', () => {
    const request: ChatRequest = { model: 'gpt-oss:120b', messages: conversation(), max_tokens: 1_000 };
    assert.ok(requestCeiling(request).promptTokens >= reasoningTokens, String(requestCeiling(request).promptTokens));
  });

  it('fitting a conversation counts it', () => {
    const fit = fitConversation(conversation(), 200_000, { maxTokens: 1_000 });
    assert.ok(fit.promptTokens >= reasoningTokens, String(fit.promptTokens));
  });

  it('compaction counts it: a 32k context is not told a 61k request fits', () => {
    const plan = planCompaction(conversation(), { maxModelLen: 32_768, toolsTokens: 500, reserveTokens: 1_000 });
    const promptTokens = 'promptTokens' in plan ? plan.promptTokens : undefined;
    assert.ok(!(plan.action === 'send' && (promptTokens ?? 0) < reasoningTokens), `${plan.action} with ${promptTokens} tokens`);
  });

  it('the turn\'s outcome (what later turns are rebuilt from) carries no reasoning; the next round of the turn did', async () => {
    const requests: ChatRequest[] = [];
    const add: AgentTool = { name: 'add', description: 'Add', parameters: { type: 'object', properties: { a: { type: 'number' } } } };
    const answers: Array<Partial<ChatResult>> = [
      { thinking: REASONING, toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2}' } }] },
      { text: 'Done.' },
    ];
    const client: AgentModelClient = {
      chatStream(request: ChatRequest): ChatStream {
        requests.push(structuredClone(request));
        const a = answers[requests.length - 1] ?? { text: '' };
        const text = a.text ?? '';
        const toolCalls = a.toolCalls ?? [];
        const result: ChatResult = {
          id: 'r', model: 'm', created: 1, text, thinking: a.thinking ?? '', toolCalls, finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop', usage: undefined,
          message: { role: 'assistant', content: text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
          meta: { requestId: undefined, rateLimit: undefined } as unknown as ChatResult['meta'],
        };
        return { consume: async () => result, [Symbol.asyncIterator]: () => { throw new Error('not used'); } } as ChatStream;
      },
    };
    const outcome = await runAgent({ client, model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'add' }], tools: [add], invoker: { invoke: async () => ({ content: '2' }) }, keepReasoning: true });
    assert.equal(outcome.status, 'answered');
    const sent = requests[1]?.messages.find((m) => m.role === 'assistant');
    assert.equal(sent?.role === 'assistant' ? sent.reasoning_content : undefined, REASONING, 'within the turn, the next round gets it back');
    assert.ok(outcome.messages.every((m) => m.role !== 'assistant' || m.reasoning_content === undefined), 'the outcome keeps none');
    assert.equal(outcome.messages.filter((m) => m.role === 'assistant').length, 2);
  });

  it('withoutReasoning drops only reasoning_content (stored turns of an older session)', () => {
    const stripped = withoutReasoning(conversation());
    assert.deepEqual(stripped[2], { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }] });
    assert.deepEqual(stripped.filter((_, i) => i !== 2), conversation().filter((_, i) => i !== 2));
  });
});
