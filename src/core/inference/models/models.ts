import { MalformedResponseError } from '../../errors';
import type { HttpTransport } from '../../http/transport';
import type { CallOptions } from '../shared/call';
import { arr, isRecord, num, str } from '../../json';
import { inferModelKind } from './kind';
import type { ModelInfo, ModelKindOverrides } from './types';

export const MODELS_PATH = '/v1/models';

/** GET /v1/models, normalised; records without an id are skipped. */
export async function listModels(
  transport: HttpTransport,
  options: CallOptions & { overrides?: ModelKindOverrides } = {},
): Promise<ModelInfo[]> {
  const res = await transport.request({ method: 'GET', path: MODELS_PATH, signal: options.signal });
  const body = await res.json();
  if (!isRecord(body) || !Array.isArray(body.data)) {
    throw new MalformedResponseError(`GET ${MODELS_PATH}: the response has no data array`);
  }
  const models: ModelInfo[] = [];
  for (const raw of arr(body.data)) {
    if (!isRecord(raw)) continue;
    const id = str(raw.id);
    if (!id) continue;
    const maxLen = num(raw.max_model_len);
    models.push({
      id,
      kind: inferModelKind(id, options.overrides),
      created: num(raw.created),
      ownedBy: str(raw.owned_by),
      root: str(raw.root),
      aliases: arr(raw.aliases).filter((a): a is string => typeof a === 'string'),
      maxModelLen: maxLen !== undefined && maxLen > 0 ? maxLen : undefined,
    });
  }
  return models;
}
