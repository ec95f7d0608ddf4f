// Stratus' own core client, bundled by bench/run.mjs with esbuild (no tsx loader in the timed child).
// The fast path: chatStream(...).consume(onEvent), one synchronous callback per delta.
import { createInferenceClient } from '../../src/core/inference/client';
import type { BenchAdapter, BenchSink } from './types';

export function setup(baseURL: string): BenchAdapter {
  const client = createInferenceClient({
    baseUrl: baseURL,
    apiKey: async () => 'bench-key',
    timeouts: { connectMs: 30_000, firstByteMs: 120_000, idleMs: 120_000 },
    retry: { attempts: 1 },
  });
  return {
    async run(model: string, sink: BenchSink): Promise<void> {
      const result = await client
        .chatStream({ model, messages: [{ role: 'user', content: 'bench' }] })
        .consume((event) => {
          if (event.type === 'text') sink.text(event.text);
          else if (event.type === 'tool_call_delta') sink.tool(event.index, event.arguments);
        });
      sink.calls(result.toolCalls.map((c) => c.function.arguments.length));
    },
    close: () => client.close(),
  };
}
