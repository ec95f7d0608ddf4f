/**
 * The paths a console client uses for each kind: the contract's, or production's (the catalog's
 * table, productionPaths.ts) once a read proved them. Reads try the remembered shape first and,
 * when the collection is not there (notThisPath), the other one; writes never probe: they use the
 * shape a read proved.
 * A kind whose collection the user set in `stratus.console.resourcePaths` is never discovered.
 */
import type { Logger } from '../log';
import type { ResourceKind, ResourceKindSpec } from './catalog/kindSpecs';
import type { PathMemory, PathShape } from './catalog/pathMemory';
import { productionOverrides } from './catalog/productionPaths';
import { resolveCatalog, ResourceCatalog } from './catalog/resourceCatalog';
import { isRecord } from '../json';
import { ApiError, isStratusError } from '../errors';
import { HtmlInsteadOfListError } from './errors';

export class ConsolePaths {
  /** The contract's paths with the user's overrides: presentation, actions, validation. */
  readonly catalog: ResourceCatalog;
  private readonly production: ResourceCatalog;
  private readonly discoverable: ReadonlySet<string>;

  constructor(
    base: readonly ResourceKindSpec[] | undefined,
    resourcePaths: unknown,
    private readonly baseUrl: string,
    private readonly memory: PathMemory,
    private readonly logger: Logger,
  ) {
    // Invalid user overrides throw here, as before discovery existed.
    this.catalog = new ResourceCatalog(resolveCatalog(resourcePaths, base));
    const user = isRecord(resourcePaths) ? resourcePaths : {};
    const table: Record<string, string> = {};
    const discoverable = new Set<string>();
    for (const kind of this.catalog.kinds) {
      const rows = productionOverrides(kind.id);
      // The user's collection wins outright: no probing around a path the user chose.
      if (Object.keys(rows).length === 0 || kind.id in user) continue;
      Object.assign(table, rows);
      discoverable.add(kind.id);
    }
    this.discoverable = discoverable;
    // The user's action keys win over the table's (`virtualMachines.power` set by hand).
    this.production = new ResourceCatalog(resolveCatalog({ ...table, ...user }, base));
  }

  /** The shapes a read tries, the remembered one first. */
  readOrder(kindId: string): PathShape[] {
    if (!this.discoverable.has(kindId)) return ['contract'];
    return this.remembered(kindId) === 'production' ? ['production', 'contract'] : ['contract', 'production'];
  }

  /** Whether writes may go now: one path only, or a read proved (now or earlier) which one answers. */
  proven(kindId: string): boolean {
    return !this.discoverable.has(kindId) || this.remembered(kindId) !== undefined;
  }

  /** The kind's paths under `shape` (default: the remembered one, else the contract's). */
  kind(kindId: string, shape: PathShape = this.remembered(kindId) ?? 'contract'): ResourceKind {
    return shape === 'production' && this.discoverable.has(kindId) ? this.production.kind(kindId) : this.catalog.kind(kindId);
  }

  /** Every kind with the paths in use now. */
  kindsInUse(): ResourceKind[] {
    return this.catalog.kinds.map((k) => this.kind(k.id));
  }

  /** A read of `shape` answered: reads and writes of the kind use it from now on. */
  answered(kindId: string, shape: PathShape): void {
    if (!this.discoverable.has(kindId) || this.remembered(kindId) === shape) return;
    const kind = this.kind(kindId, shape);
    this.logger.info(`Console ${this.baseUrl}: ${kind.label.plural.toLowerCase()} answered at ${kind.collection} (the ${shape} path); used from now on.`);
    this.memory.set(this.baseUrl, kindId, shape);
  }

  private remembered(kindId: string): PathShape | undefined {
    return this.memory.get(this.baseUrl, kindId);
  }
}

/**
 * How a read of a collection said the collection is not at that path, or undefined when it said
 * something else (a 401, 403, 429, 5xx, a network failure: the same at any path). A 404 or 410; a
 * 405 (a gateway that routes no GET there); a redirect (not followed: a gateway's sign-in page or a
 * moved path); a 2xx web page where the list should be (a gateway's single-page-app fallback).
 * A 2xx of broken JSON stays an unreadable answer (the console's, at its path).
 */
export function notThisPath(error: unknown): string | undefined {
  if (!isStratusError(error)) return undefined;
  if (error.kind === 'not_found') return '404';
  if (error instanceof HtmlInsteadOfListError) return 'a web page';
  if (error instanceof ApiError && error.kind === 'api') {
    const status = error.status;
    if (status === 405 || status === 410 || (status >= 300 && status < 400)) return String(status);
  }
  return undefined;
}
