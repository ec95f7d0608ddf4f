import type { ResourceKind } from '../../core/console/catalog/kindSpecs';
import type { ResourceItem } from '../../core/console/types';

/** What the Cloud tree shows. Node objects are cached so reveal() and refreshes keep identity. Pages: src/core/console/lists/pagedList.ts. */
export type ResourceNode =
  | { readonly type: 'kind'; readonly kind: ResourceKind }
  | { readonly type: 'resource'; readonly kind: ResourceKind; item: ResourceItem }
  | { readonly type: 'more'; readonly kind: ResourceKind; readonly nextOffset: number; readonly label?: string }
  | { readonly type: 'message'; readonly id: string; readonly kind?: ResourceKind; readonly text: string; readonly detail?: string; readonly icon: string; readonly severity: 'info' | 'error' | 'signIn' };

export const PAGE_SIZE = 100;
