// The `ai` SDK: streamText with @ai-sdk/openai-compatible, consuming fullStream.
// Tool-call deltas need the tool declared (input schema, no execute, so the step ends at the call).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { jsonSchema, streamText, tool } from 'ai';

export function setup(baseURL) {
  const provider = createOpenAICompatible({ name: 'bench', baseURL, apiKey: 'bench-key' });
  const tools = {
    write_file: tool({
      description: 'Writes data',
      inputSchema: jsonSchema({ type: 'object', properties: { data: { type: 'string' } }, required: ['data'] }),
    }),
  };
  return {
    async run(model, sink) {
      const result = streamText({
        model: provider.chatModel(model),
        messages: [{ role: 'user', content: 'bench' }],
        ...(model.startsWith('tools') ? { tools } : {}),
        maxRetries: 0,
      });
      const lengths = [];
      for await (const part of result.fullStream) {
        switch (part.type) {
          case 'text-delta':
            sink.text(part.text);
            break;
          case 'tool-input-delta':
            sink.tool(part.id, part.delta);
            break;
          case 'tool-call':
            lengths.push(JSON.stringify(part.input).length);
            break;
          case 'error':
            throw part.error instanceof Error ? part.error : new Error(String(part.error));
        }
      }
      if (lengths.length) sink.calls(lengths);
    },
    close: async () => undefined,
  };
}
