import { HttpTransport } from '../http/transport';
import type { SecretProvider, TransportOptions } from '../http/types';
import { chat, chatStream } from './chat/chat';
import { complete, completeStream } from './completions/completions';
import { embed } from './embeddings/embeddings';
import { ModelCatalog } from './models/catalog';
import type { ModelKindOverrides } from './models/types';
import type { CapabilityOverrides } from './models/overrides';
import { rerank } from './rerank/rerank';
import { transcribe } from './transcription/transcription';
import type { InferenceClient } from './api';
import type { CallOptions } from './shared/call';

export type { InferenceClient } from './api';

export interface InferenceClientOptions
  extends Omit<TransportOptions, 'auth' | 'secretName' | 'onUnauthorized'> {
  /** Reads the inference API key (kept in the OS secret store by the platform layer). */
  apiKey: SecretProvider;
  /** Name of the key in errors. Default "inference API key". */
  secretName?: string;
  /** Model list cache lifetime. Default 5 minutes. */
  modelCacheTtlMs?: number;
  /** Model kind overrides by id (a setting); a function is re-read on every use. */
  modelKindOverrides?: ModelKindOverrides | (() => ModelKindOverrides);
  /** Whether tool calls a model prints as text are recovered for it (`stratus.models.textToolCalls`); default yes. */
  textToolCalls?: (model: string) => boolean;
  /**
   * Extra chat/completions body fields for a model (`stratus.models.extraBody`, reasoning effort),
   * least specific first; re-read on every request.
   */
  extraBody?: (model: string) => ReadonlyArray<Readonly<Record<string, unknown>>>;
  /** `stratus.models.overrides` (id or glob to capabilities), re-read on every listing. */
  capabilityOverrides?: () => CapabilityOverrides;
}


/**
 * The inference API over one transport (one connection pool). Creating it loads nothing. Usage
 * metering is a decorator in core/usage (`createMeteredInferenceClient`), not part of the client.
 */
export function createInferenceClient(options: InferenceClientOptions): InferenceClient {
  const { apiKey, secretName, modelCacheTtlMs, modelKindOverrides, textToolCalls, extraBody, capabilityOverrides, ...transportOptions } = options;
  const withExtras = <O extends CallOptions>(model: string, opts: O | undefined): O | undefined => {
    const layers = extraBody?.(model);
    return layers && layers.length > 0 ? Object.assign({}, opts, { extraBody: [...layers, ...(opts?.extraBody ?? [])] }) : opts;
  };
  const transport = new HttpTransport({
    ...transportOptions,
    baseUrlParam: transportOptions.baseUrlParam ?? 'stratus.inference.baseUrl',
    auth: apiKey,
    secretName: secretName ?? 'inference API key',
  });
  const models = new ModelCatalog(transport, {
    ...(modelCacheTtlMs !== undefined ? { ttlMs: modelCacheTtlMs } : {}),
    ...(modelKindOverrides !== undefined ? { overrides: modelKindOverrides } : {}),
    ...(capabilityOverrides !== undefined ? { capabilities: capabilityOverrides } : {}),
  });
  return {
    chat: (request, opts) =>
      chat(transport, request, { textToolCalls: textToolCalls?.(request.model) ?? true, onTextToolCall: (line) => transportOptions.logger?.info(line), ...withExtras(request.model, opts) }),
    chatStream: (request, opts) =>
      chatStream(transport, request, { textToolCalls: textToolCalls?.(request.model) ?? true, onTextToolCall: (line) => transportOptions.logger?.info(line), ...withExtras(request.model, opts) }),
    complete: (request, opts) => complete(transport, request, withExtras(request.model, opts)),
    completeStream: (request, opts) => completeStream(transport, request, withExtras(request.model, opts)),
    embed: (request, opts) => embed(transport, request, opts),
    rerank: (request, opts) => rerank(transport, request, opts),
    transcribe: (request, opts) => transcribe(transport, request, opts),
    models,
    transport,
    close: () => transport.close(),
  };
}
