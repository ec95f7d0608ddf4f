import type { ResourceKind } from './catalog-types';
import { collectionBase } from './lists';
import { ACTIVITIES_PATH, ACTIVITY_PATH, AUTH_PATH, moduleOf, splitQuery } from './routes';
import type { EndpointInUse } from './types';

function endpoint(method: string, path: string, purpose: string): EndpointInUse {
  const mv = moduleOf(path);
  return { module: mv?.module ?? 'console', version: mv?.version ?? 1, method, path, purpose };
}

/** A template with `{collection}` replaced and no query: how requests and deprecation notices name it. */
export function endpointPath(kind: Pick<ResourceKind, 'collection'>, template: string): string {
  return splitQuery(template.replace('{collection}', collectionBase(kind))).path;
}

/**
 * Every endpoint this client can call, from the catalog (after overrides) plus the auth and
 * activity routes: the list the contract advises clients to keep, to check against deprecations.
 */
export function endpointsInUse(kinds: readonly ResourceKind[]): EndpointInUse[] {
  const list: EndpointInUse[] = [
    endpoint('POST', AUTH_PATH, 'Exchange the personal access token for an access token'),
    endpoint('GET', ACTIVITIES_PATH, 'List activities'),
    endpoint('GET', ACTIVITY_PATH, 'Read (follow) an activity'),
  ];
  for (const kind of kinds) {
    list.push(endpoint('GET', collectionBase(kind), `List ${kind.label.plural.toLowerCase()}`));
    if (kind.item) list.push(endpoint('GET', endpointPath(kind, kind.item), `Read a ${kind.label.singular.toLowerCase()}`));
    for (const action of kind.actions) {
      const what = `${action.label.replace(/\.\.\.$/, '')}${action.target === 'item' ? ` (${kind.label.singular.toLowerCase()})` : ''}`;
      list.push(endpoint(action.method, endpointPath(kind, action.path), what));
    }
  }
  // Power on and off share one endpoint: list each method+path once, purposes merged.
  const merged = new Map<string, EndpointInUse>();
  for (const e of list) {
    const key = `${e.method} ${e.path}`;
    const seen = merged.get(key);
    if (seen) seen.purpose = `${seen.purpose}; ${e.purpose}`;
    else merged.set(key, { ...e });
  }
  return [...merged.values()].sort(
    (a, b) => a.module.localeCompare(b.module) || a.version - b.version || a.path.localeCompare(b.path) || a.method.localeCompare(b.method),
  );
}
