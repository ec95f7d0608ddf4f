import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpTransport } from '../../../src/core/http/transport';
import type { RetryOptions } from '../../../src/core/http/types';
import type { BatchRequest } from '../../../src/core/inference/batch';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';

export interface BatchRig {
  sandbox: Sandbox;
  transport: HttpTransport;
  tmp: string;
  /** Every wait the poller asked for; each also moves the sandbox clock on by as much. */
  sleeps: number[];
  sleep: (ms: number) => Promise<void>;
  close(): Promise<void>;
}

export async function startBatchRig(options: SandboxOptions & { retry?: Partial<RetryOptions> } = {}): Promise<BatchRig> {
  const { retry, ...sandboxOptions } = options;
  const sandbox = await startSandbox(sandboxOptions);
  const transport = new HttpTransport({ baseUrl: sandbox.inferenceUrl, auth: () => Promise.resolve(sandbox.credentials.apiKey), secretName: 'inference API key', ...(retry ? { retry } : {}) });
  const tmp = mkdtempSync(join(tmpdir(), 'stratus-batch-test-'));
  const sleeps: number[] = [];
  return {
    sandbox,
    transport,
    tmp,
    sleeps,
    sleep: (ms) => {
      sleeps.push(ms);
      sandbox.control.advanceTime(ms);
      return Promise.resolve();
    },
    async close() {
      await transport.close();
      await sandbox.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export function chatRequests(n: number, model = 'gpt-oss:120b', prefix = 'item'): BatchRequest[] {
  return Array.from({ length: n }, (_, i) => ({ customId: `${prefix}-${i}`, body: { model, messages: [{ role: 'user', content: `Summarise file ${i}` }], max_tokens: 64 } }));
}
