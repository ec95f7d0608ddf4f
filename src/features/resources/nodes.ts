import type { ResourceKind } from '../../core/console/catalog-types';
import type { ResourceItem } from '../../core/console/types';

/** What the Cloud tree shows. Node objects are cached so reveal() and refreshes keep identity. */
export type ResourceNode =
  | { readonly type: 'kind'; readonly kind: ResourceKind }
  | { readonly type: 'resource'; readonly kind: ResourceKind; item: ResourceItem }
  | { readonly type: 'more'; readonly kind: ResourceKind; readonly nextOffset: number }
  | { readonly type: 'message'; readonly id: string; readonly kind?: ResourceKind; readonly text: string; readonly detail?: string; readonly icon: string; readonly severity: 'info' | 'error' | 'signIn' };

/** Per-collection state: loaded pages, the filter, the last error. */
export interface CollectionState {
  items: ResourceItem[];
  total: number | undefined;
  nextOffset: number | undefined;
  partial: boolean;
  filter: string | undefined;
  error: string | undefined;
  loaded: boolean;
  /** Bumped on every reload so late answers of an older load are dropped. */
  generation: number;
}

export function emptyCollection(): CollectionState {
  return { items: [], total: undefined, nextOffset: undefined, partial: false, filter: undefined, error: undefined, loaded: false, generation: 0 };
}

export const PAGE_SIZE = 100;
