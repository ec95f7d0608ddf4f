import { ValidationError } from '../errors';
import { DEFAULT_CATALOG } from './catalog';
import type { ActionSpec, ResourceKind, ResourceKindSpec } from './catalog-types';
import { isRecord } from '../json';
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
