/**
 * The resolved resource catalog: the `stratus.console.resourcePaths` overrides applied to the
 * built-in kinds, lookups of kinds and actions, and how a listed resource is presented.
 */
import { ValidationError } from '../../errors';
import { isRecord, at, nonBlankText } from '../../json';
import type { ResourceItem } from '../types';
import { initialInput, isAvailable } from './actionInputs';
import { DEFAULT_CATALOG } from './builtInKinds';
import type { ActionSpec, ResourceKind, FieldSpec, ResourceKindSpec, ResourcePresentation } from './kindSpecs';
import { moduleOf, placeholdersOf, SESSION_PLACEHOLDERS } from './routes';

export const RESOURCE_PATHS_SETTING = 'stratus.console.resourcePaths';

const EXAMPLE = '{"virtualMachines": "/api/compute/v1/vcenters/virtual_machines"}';

// `item` needs {id}; so does an item action that cannot send the id in its body.
type Role = 'collection' | 'item' | 'itemAction' | 'collectionAction';

/** Why a path is unusable for its role, or undefined when it is fine. */
function pathProblem(value: string, role: Role, needsId = role === 'item'): string | undefined {
  if (/\s/.test(value) || value.includes('#')) return 'must not contain spaces or "#"';
  const [path = '', query] = value.split('?', 2);
  if (path.split('/').some((s) => s === '..' || s === '.')) return 'must not contain "." or ".." segments';
  const inPath = placeholdersOf(path);
  const inQuery = query === undefined ? [] : placeholdersOf(query);
  const allowedInPath = role === 'collection' ? [] : role === 'collectionAction' ? ['collection'] : ['collection', 'id'];
  const badPath = inPath.find((p) => !allowedInPath.includes(p));
  if (badPath) return `may not use {${badPath}} in its path`;
  const badQuery = inQuery.find((p) => !(SESSION_PLACEHOLDERS as readonly string[]).includes(p));
  if (badQuery) return `may not use {${badQuery}} (allowed in the query: ${SESSION_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`;
  if (needsId && !inPath.includes('id')) return 'must contain {id}';
  const absolute = path.replace(/^\{collection\}/, '/api/x/v1');
  if (!absolute.startsWith('/api/') || !moduleOf(absolute)) {
    return 'must look like /api/{module}/v{version}/... (or start with {collection})';
  }
  return undefined;
}

function roleOf(action: ActionSpec): Role {
  return action.target === 'item' ? 'itemAction' : 'collectionAction';
}

/** The kind with its module, version and read-only flag derived from the data. */
export function resolveKind(spec: ResourceKindSpec): ResourceKind {
  const mv = moduleOf(spec.collection);
  if (!mv) throw new Error(`Catalog bug: ${spec.id} has an invalid collection path`);
  return { ...spec, module: mv.module, version: mv.version, readOnly: spec.actions.length === 0 };
}

/**
 * Applies the `stratus.console.resourcePaths` setting to the default catalog. Keys:
 * `<kind>` (collection path), `<kind>.item` (read-one template), `<kind>.<action>` (an action's
 * path; `virtualMachines.power` sets both power actions). Every problem is reported at once in a
 * ValidationError so a typo never silently sends requests elsewhere.
 */
export function resolveCatalog(overrides?: unknown, base: readonly ResourceKindSpec[] = DEFAULT_CATALOG): ResourceKind[] {
  if (overrides === undefined || overrides === null) return base.map(resolveKind);
  if (!isRecord(overrides)) {
    throw new ValidationError(`${RESOURCE_PATHS_SETTING} must be an object such as ${EXAMPLE}`, RESOURCE_PATHS_SETTING);
  }
  const kinds = new Map(base.map((k) => [k.id, { ...k, actions: [...k.actions] }]));
  const problems: Array<{ key: string; message: string }> = [];
  for (const [key, value] of Object.entries(overrides)) {
    const [kindId = '', suffix, ...rest] = key.split('.');
    const kind = kinds.get(kindId);
    if (!kind || rest.length > 0) {
      problems.push({ key, message: `unknown resource kind (known: ${[...kinds.keys()].join(', ')})` });
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push({ key, message: 'must be a non-empty string path' });
      continue;
    }
    const path = value.trim();
    if (suffix === undefined) {
      const problem = pathProblem(path, 'collection');
      if (problem) problems.push({ key, message: problem });
      else kind.collection = path;
    } else if (suffix === 'item') {
      const problem = kind.item === undefined ? 'this kind has no read-one endpoint' : pathProblem(path, 'item');
      if (problem) problems.push({ key, message: problem });
      else kind.item = path;
    } else {
      const matching = kind.actions.filter((a) => (a.pathKey ?? a.id) === suffix || a.id === suffix);
      if (matching.length === 0) {
        const keys = [...new Set(kind.actions.map((a) => a.pathKey ?? a.id)), ...(kind.item ? ['item'] : [])];
        problems.push({ key, message: `unknown action (known: ${keys.join(', ') || 'none'})` });
        continue;
      }
      const problem = matching
        .map((a) => pathProblem(path, roleOf(a), a.target === 'item' && a.idInBody === undefined))
        .find((p) => p !== undefined);
      if (problem) problems.push({ key, message: problem });
      else kind.actions = kind.actions.map((a) => (matching.includes(a) ? { ...a, path } : a));
    }
  }
  if (problems.length > 0) {
    const list = problems.map((p) => `"${p.key}" ${p.message}`).join('; ');
    const param = problems.length === 1 ? `${RESOURCE_PATHS_SETTING}.${problems[0]?.key ?? ''}` : RESOURCE_PATHS_SETTING;
    throw new ValidationError(`Invalid ${RESOURCE_PATHS_SETTING}: ${list}. Example: ${EXAMPLE}`, param);
  }
  return [...kinds.values()].map(resolveKind);
}

/** Read access to the resolved catalog, for the tree and the command flows. */
export class ResourceCatalog {
  private readonly byId: ReadonlyMap<string, ResourceKind>;

  constructor(readonly kinds: readonly ResourceKind[]) {
    this.byId = new Map(kinds.map((k) => [k.id, k]));
  }

  kind(kindId: string): ResourceKind {
    const kind = this.byId.get(kindId);
    if (!kind) throw new ValidationError(`Unknown resource kind '${kindId}'`, 'kind');
    return kind;
  }

  action(kindId: string, actionId: string): ActionSpec {
    const kind = this.kind(kindId);
    const action = kind.actions.find((a) => a.id === actionId);
    if (!action) throw new ValidationError(`${kind.label.plural} have no action '${actionId}'`, 'action');
    return action;
  }

  /** Label, description, tooltip and icon of a listed resource. */
  present(kindId: string, item: ResourceItem): ResourcePresentation {
    return present(this.kind(kindId), item);
  }

  /** Actions offered on a resource (item actions whose conditions hold), or on the collection. */
  actionsFor(kindId: string, item?: ResourceItem): ActionSpec[] {
    const kind = this.kind(kindId);
    return kind.actions.filter((a) => (item ? a.target === 'item' && isAvailable(a, item) : a.target === 'collection'));
  }

  /** Starting values of an action's input flow (defaults, or the resource's current values). */
  initialInput(kindId: string, actionId: string, item?: ResourceItem): Record<string, string | number | boolean> {
    return initialInput(this.action(kindId, actionId), item);
  }

  /** The confirmation text of an action on a resource, or undefined when none is needed. */
  confirmation(kindId: string, actionId: string, item?: ResourceItem): string | undefined {
    const kind = this.kind(kindId);
    const template = this.action(kindId, actionId).confirm;
    return template
      ?.replaceAll('{name}', item?.name ?? '')
      .replaceAll('{kind}', kind.label.singular.toLowerCase());
  }
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

function formatBytes(bytes: number): string {
  if (bytes >= GIB) return `${trim(bytes / GIB)} GiB`;
  if (bytes >= MIB) return `${trim(bytes / MIB)} MiB`;
  return `${bytes} B`;
}

function trim(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** Formats one field of a raw resource; undefined when the field is absent or unusable. */
export function formatField(raw: unknown, field: FieldSpec): string | undefined {
  const value = at(raw, field.path);
  switch (field.format ?? 'text') {
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 'yes' : 'no') : nonBlankText(value);
    case 'bytes':
      return typeof value === 'number' && value >= 0 ? formatBytes(value) : nonBlankText(value);
    case 'vcpu':
      return typeof value === 'number' ? `${value} vCPU` : nonBlankText(value);
    case 'count': {
      if (typeof value !== 'number') return nonBlankText(value);
      const [one, many] = field.unit ?? ['', ''];
      const unit = value === 1 ? one : many;
      return unit ? `${value} ${unit}` : String(value);
    }
    case 'text':
      return nonBlankText(value);
  }
}

/** Display name: the first non-empty name field, else the id. */
export function displayName(kind: Pick<ResourceKindSpec, 'presentation'>, raw: unknown, id: string): string {
  for (const path of kind.presentation.nameFields) {
    const value = nonBlankText(at(raw, path));
    if (value) return value;
  }
  return id;
}

/** Label, description, tooltip and icon of a resource, from the kind's presentation data. */
export function present(kind: ResourceKindSpec, item: ResourceItem): ResourcePresentation {
  const spec = kind.presentation;
  const description = spec.description
    .map((field) => formatField(item.raw, field))
    .filter((v): v is string => v !== undefined)
    .join(' · ');
  const details: Array<{ label: string; value: string }> = [];
  for (const field of spec.tooltip) {
    const value = formatField(item.raw, field);
    if (value !== undefined) details.push({ label: field.label ?? field.path, value });
  }
  let icon = kind.icon;
  if (spec.iconRule) {
    const state = nonBlankText(at(item.raw, spec.iconRule.path));
    icon = (state !== undefined ? spec.iconRule.values[state] : undefined) ?? kind.icon;
  }
  const tooltip = [item.name, ...details.map((d) => `${d.label}: ${d.value}`)].join('\n');
  return { label: item.name, description, tooltip, details, icon };
}
