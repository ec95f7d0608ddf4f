import type { InferenceClient } from '../inference/api';
import { createInferenceClient, type InferenceClientOptions } from '../inference/client';
import type { UsageListener } from './events';
import type { BeforeGeneration } from './guard';
import { meterClient } from './metering';

export interface MeteredClientOptions extends InferenceClientOptions {
  /** Told about the tokens, search units and audio minutes of every answer (the usage meter). */
  onUsage?: UsageListener;
  /** Awaited before a chat or completion request is sent: the usage cap check (may wait or throw). */
  beforeGeneration?: BeforeGeneration;
  /** Clock of the usage events (tests). */
  usageNow?: () => number;
}

/** An inference client whose answers are metered and whose generating requests pass the cap check. */
export function createMeteredInferenceClient(options: MeteredClientOptions): InferenceClient {
  const { onUsage, beforeGeneration, usageNow, ...clientOptions } = options;
  return meterClient(createInferenceClient(clientOptions), { onUsage, beforeGeneration, now: usageNow });
}
