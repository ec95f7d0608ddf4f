import assert from 'node:assert/strict';
import { runAgent } from '../../../src/core/agent/loop';
import type { AgentTool, ToolInvocation } from '../../../src/core/agent/types';
import { createInferenceClient, type InferenceClient } from '../../../src/core/inference';
import { useSandbox } from '../sandbox/helpers';

const TOOLS: AgentTool[] = [
  { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'run_task', description: 'Runs a task.', parameters: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] } },
];

describe('agent loop: a two-tool task with models that print their tool calls as text, or reason apart from their content (sandbox)', () => {
  const sb = useSandbox();
  let client: InferenceClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  for (const model of ['gpt-oss:20b-harmony', 'qwen2.5:7b', 'mistral-nemo:12b', 'llama3.1:8b', 'qwen3:8b']) {
    it(`${model}: read_file, then run_task with its result, then the answer`, async () => {
      client = createInferenceClient({ baseUrl: sb().inferenceUrl, apiKey: () => Promise.resolve(sb().credentials.apiKey), retry: { attempts: 1 } });
      const ran: ToolInvocation[] = [];
      let shown = '';
      const outcome = await runAgent({
        client,
        model,
        tools: TOOLS,
        messages: [{ role: 'user', content: 'plan: read_file {"path": "a.txt"} ; run_task {"note": "{{result}}"}' }],
        invoker: {
          invoke: (invocation) => {
            ran.push(invocation);
            return Promise.resolve({ content: invocation.name === 'read_file' ? 'hello from a.txt' : 'exit 0' });
          },
        },
        onEvent: (e) => {
          if (e.type === 'text') shown += e.text;
        },
      });
      assert.equal(outcome.status, 'answered');
      assert.deepEqual(ran.map((r) => [r.name, r.input]), [['read_file', { path: 'a.txt' }], ['run_task', { note: 'hello from a.txt' }]]);
      // A call read from the text is flagged for the approval path (never auto-approved); a native call is not (issue 40).
      const native = model === 'qwen3:8b';
      assert.deepEqual(ran.map((r) => r.fromText === true), [!native, !native]);
      assert.equal(outcome.text, 'Tool result (read_file): hello from a.txt\nTool result (run_task): exit 0');
      assert.doesNotMatch(shown, /<\||<tool_call>|\[TOOL_CALLS\]|"parameters"/);
    });
  }
});
