// The official `openai` SDK: chat.completions.create({stream: true}) and `for await` over chunks.
import OpenAI from 'openai';

export function setup(baseURL) {
  const client = new OpenAI({ baseURL, apiKey: 'bench-key', maxRetries: 0, timeout: 600_000 });
  return {
    async run(model, sink) {
      const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'bench' }], stream: true });
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        if (!delta) continue;
        if (delta.content) sink.text(delta.content);
        const calls = delta.tool_calls;
        if (calls) for (const call of calls) if (call.function?.arguments) sink.tool(call.index, call.function.arguments);
      }
    },
    close: async () => undefined,
  };
}
