import { ValidationError } from '../errors';
import type { ActionSpec, ResourceKind, ResourcePresentation } from './catalog-types';
import { initialInput, isAvailable } from './inputs';
import { present } from './present';
import type { ResourceItem } from './types';

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
