/**
 * Where the production console serves what the contract places elsewhere (spec/field-notes.md,
 * "Console: resources" and "Console: authentication"; the same paths as its public Go client), one
 * row per kind and action that differs, as `stratus.console.resourcePaths` keys. Applied to a kind
 * only once a read of its contract collection answered 404 and this collection answered
 * (consolePaths.ts); a user's `resourcePaths` key wins over a row here. Writes never probe: each
 * goes to the path of the shape its collection's read proved.
 *
 * Every write, by shape (contract -> production once proved):
 * - virtual machines: create `POST {collection}`, delete `DELETE {collection}/{id}` and read one
 *   follow their collection; modify `PATCH {collection}/{id}` -> `PATCH {collection}` with the id in
 *   the body, and power `-> PATCH {collection}/power` (rows below).
 * - users: create `POST {collection}`, at `/api/iam/v2/users` once the v2 listing answered (the
 *   `companyId` query is the listing's, not the write's).
 * - roles (`/api/iam/v2/roles`), networks (create included) and activities are at the contract's
 *   paths in production too: no row, no probe.
 */
export interface ProductionPath {
  /** `<kind>` (its collection) or `<kind>.<action path key>`, as in `resourcePaths`. */
  key: string;
  path: string;
  /** What the field notes say. */
  source: string;
}

export const PRODUCTION_PATHS: readonly ProductionPath[] = [
  {
    key: 'virtualMachines',
    path: '/api/compute/v1/vcenters/virtual_machines',
    source: 'Production VM paths differ from the contract: /api/compute/v1/vcenters/virtual_machines',
  },
  {
    // The body is {id, datacenterId, powerAction}: the action's `idInBody` (builtInKinds.ts) sends
    // the VM's id and its `datacenter.id` from the listed VM when the path has no {id}.
    key: 'virtualMachines.power',
    path: '{collection}/power',
    source: 'power actions through PATCH .../virtual_machines/power with {id, datacenterId, powerAction}',
  },
  {
    // The body is {id, ...changes}: the action's `idInBody` sends the VM's id when the path has no {id}.
    key: 'virtualMachines.modify',
    path: '{collection}',
    source: "The public Go client modifies a VM with PATCH .../vcenters/virtual_machines, the VM's id in the body",
  },
  {
    key: 'users',
    path: '/api/iam/v2/users?companyId={companyId}',
    source: 'Some production paths list users with GET /api/iam/v2/users?companyId=<companyId from JWT>',
  },
];

/** The rows of one kind as `resourcePaths` overrides; empty when production serves it as the contract says. */
export function productionOverrides(kindId: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of PRODUCTION_PATHS) if (row.key === kindId || row.key.startsWith(`${kindId}.`)) out[row.key] = row.path;
  return out;
}
