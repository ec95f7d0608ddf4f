import { abortable } from '../../abortable';
import type { HttpTransport } from '../../http/transport';
import { inferModelKind } from './kind';
import { listModels } from './models';
import { applyCapabilityOverride, overrideFor, type CapabilityOverrides } from './overrides';
import type { ModelInfo, ModelKind, ModelKindOverrides } from './types';

export interface ModelCatalogOptions {
  /** How long a fetched list is served from memory. Default 5 minutes. */
  ttlMs?: number;
  /** Kind overrides by id; a function so a changed setting applies without a refetch. */
  overrides?: ModelKindOverrides | (() => ModelKindOverrides);
  /** `stratus.models.overrides` by id or glob, re-read on every listing like the kinds. */
  capabilities?: () => CapabilityOverrides;
  now?: () => number;
}

/**
 * `/v1/models` with a TTL cache and explicit refresh. Concurrent callers share one request; a
 * caller's abort only stops its own wait, not the shared fetch others may be waiting on.
 */
export class ModelCatalog {
  private cached: { models: ModelInfo[]; at: number } | undefined;
  private inFlight: Promise<ModelInfo[]> | undefined;
  /** Bumped by invalidate(): a fetch started before it is never joined nor cached after it. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly transport: HttpTransport,
    private readonly options: ModelCatalogOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Cached models (kinds re-applied with the current overrides), fetched when stale. */
  async list(options: { signal?: AbortSignal; refresh?: boolean } = {}): Promise<ModelInfo[]> {
    const fresh = this.cached && this.now() - this.cached.at < this.ttlMs;
    if (!fresh || options.refresh) {
      await abortable(this.load(options.refresh === true), options.signal);
    }
    return this.withKinds(this.cached?.models ?? []);
  }

  /** Refetches now, whatever the cache age. */
  refresh(signal?: AbortSignal): Promise<ModelInfo[]> {
    return this.list({ signal, refresh: true });
  }

  /** A model by id or alias. */
  async find(id: string, signal?: AbortSignal): Promise<ModelInfo | undefined> {
    const models = await this.list({ signal });
    return models.find((m) => m.id === id) ?? models.find((m) => m.aliases.includes(id));
  }

  /** Kind of a model id, with the current overrides (works for ids not in the list too). */
  kindOf(id: string): ModelKind {
    const kind = inferModelKind(id, this.overrides());
    const override = overrideFor(this.options.capabilities?.() ?? {}, id);
    return applyCapabilityOverride({ id, kind, created: undefined, ownedBy: undefined, root: undefined, aliases: [], maxModelLen: undefined }, override).kind;
  }

  /**
   * Drops the cache, e.g. after the base URL or the key changed, and forgets a fetch in flight:
   * it was sent with the old key (a 401 at start-up), so a caller after the change must not wait
   * for its answer, nor may that answer be cached.
   */
  invalidate(): void {
    this.cached = undefined;
    this.inFlight = undefined;
    this.generation++;
  }

  private load(force: boolean): Promise<ModelInfo[]> {
    if (this.inFlight && !force) return this.inFlight;
    const generation = this.generation;
    const started = listModels(this.transport).then((models) => {
      if (generation === this.generation) this.cached = { models, at: this.now() };
      return models;
    });
    const tracked = started.finally(() => {
      if (this.inFlight === tracked) this.inFlight = undefined;
    });
    this.inFlight = tracked;
    return tracked;
  }

  private overrides(): ModelKindOverrides | undefined {
    const o = this.options.overrides;
    return typeof o === 'function' ? o() : o;
  }

  private withKinds(models: ModelInfo[]): ModelInfo[] {
    const overrides = this.overrides();
    const capabilities = this.options.capabilities?.() ?? {};
    return models.map((m) => applyCapabilityOverride({ ...m, kind: inferModelKind(m.id, overrides) }, overrideFor(capabilities, m.id)));
  }
}
