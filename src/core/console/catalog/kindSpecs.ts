/**
 * Shapes of the data-driven resource catalog. Everything the UI needs to show and act on a resource
 * kind is data here, so paths and versions can change (or be overridden by a setting) without code.
 */

export type FieldFormat = 'text' | 'bytes' | 'vcpu' | 'count' | 'boolean';

/** One value read from a raw resource by a dotted path (`operatingSystem.name`). */
export interface FieldSpec {
  path: string;
  /** Shown in tooltips ("Memory: 4 GiB"); descriptions show the bare value. */
  label?: string;
  format?: FieldFormat;
  /** For `count`: singular and plural unit ("1 VM", "3 VMs"). */
  unit?: readonly [string, string];
}

/** Picks a codicon from a field's value (a VM's power state), falling back to the kind's icon. */
export interface IconRule {
  path: string;
  values: Readonly<Record<string, string>>;
}

export interface PresentationSpec {
  /** Candidate paths for the display name; the first non-empty wins, then the id. */
  nameFields: readonly string[];
  /** Joined with " · " into the tree item's description. */
  description: readonly FieldSpec[];
  /** "Label: value" lines of the tooltip and details. */
  tooltip: readonly FieldSpec[];
  iconRule?: IconRule;
}

export type InputType = 'string' | 'integer' | 'boolean' | 'email';

/** One input of a create/modify flow. */
export interface InputField {
  /** Key in the input object the UI collects. */
  key: string;
  /** Dotted path in the request body (`operatingSystem.name`). */
  wire: string;
  label: string;
  type: InputType;
  required?: boolean;
  default?: string | number | boolean;
  /** Inclusive bounds for integers, in input units. */
  min?: number;
  max?: number;
  /** Wire value = input x scale (memory in GiB on screen, bytes on the wire). */
  scale?: number;
  placeholder?: string;
}

/** A condition on a raw resource; values are compared as strings. */
export interface Condition {
  path: string;
  equals?: string;
  notEquals?: string;
}

export type WriteMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ActionSpec {
  /** `create`, `modify`, `delete`, `powerOn`, `powerOff`, ... */
  id: string;
  label: string;
  method: WriteMethod;
  /** `collection` actions (create) need no resource; `item` actions act on one. */
  target: 'collection' | 'item';
  /** Path template: `{collection}`, `{collection}/{id}`, or an absolute path. */
  path: string;
  /** Override key suffix in `stratus.console.resourcePaths` (`virtualMachines.power`). Default: id. */
  pathKey?: string;
  fields?: readonly InputField[];
  /** Fixed body fields, e.g. `{powerAction: "on"}`. */
  body?: Readonly<Record<string, string | number | boolean>>;
  /**
   * Body fields taken from the resource (wire key -> raw path), sent when the path has no `{id}`,
   * e.g. production's `PATCH .../virtual_machines/power {id, datacenterId, powerAction}`.
   */
  idInBody?: Readonly<Record<string, string>>;
  /** When set, the UI asks first (modal); `{name}` and `{kind}` are replaced. */
  confirm?: string;
  /** All must hold for the action to be offered on a resource. */
  when?: readonly Condition[];
  icon?: string;
}

export interface ResourceKindSpec {
  /** Stable id, also the key in `stratus.console.resourcePaths`. */
  id: string;
  label: { singular: string; plural: string };
  /** Codicon id. */
  icon: string;
  /** Collection path; its query may use `{companyId}`, `{tenantId}`, `{userId}` (JWT claims). */
  collection: string;
  /** Template to read one resource (`{collection}/{id}`); absent when the API has none. */
  item?: string;
  presentation: PresentationSpec;
  actions: readonly ActionSpec[];
}

/** A resolved kind: the spec plus what its collection path says. */
export interface ResourceKind extends ResourceKindSpec {
  module: string;
  version: number;
  /** No write actions. */
  readOnly: boolean;
}

/** What the tree shows for one resource. */
export interface ResourcePresentation {
  label: string;
  description: string;
  /** Plain text, one "Label: value" per line. */
  tooltip: string;
  /** The same lines as data, for a details view. */
  details: Array<{ label: string; value: string }>;
  /** Codicon id. */
  icon: string;
}
