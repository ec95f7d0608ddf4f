// Stratus' console client, as the Cloud tree drives it. Bundled by bench/console.mjs with esbuild
// (over the runtime's fetch, as in the extension's dist/), so no tsx
// loader runs in the timed child. See bench/console/child.mjs for what is timed.
import { createConsoleClient } from '../../src/core/console/index';
import type { ConsoleClient, ResourceItem, ResourcePresentation } from '../../src/core/console/index';
import type { ConsoleBenchAdapter, ConsoleBenchTarget, ConsolePage } from './types';

const KIND = 'virtualMachines';

/** A rendered row: the item (for actions and details) and what the tree shows for it. */
export interface Row {
  item: ResourceItem;
  view: ResourcePresentation;
}

export function setup(target: ConsoleBenchTarget): ConsoleBenchAdapter<Row> {
  const client: ConsoleClient = createConsoleClient({
    baseUrl: target.baseUrl,
    pat: { id: async () => target.patId, secret: async () => target.patSecret },
  });
  return {
    async signIn(): Promise<void> {
      await client.auth.signIn();
    },
    async page(offset: number, name?: string): Promise<ConsolePage<Row>> {
      const page = await client.list(KIND, { limit: 100, offset, ...(name !== undefined ? { name } : {}) });
      const rows = page.items.map((item) => ({ item, view: client.catalog.present(KIND, item) }));
      return { rows, total: page.total, nextOffset: page.nextOffset, ids: page.items.map((i) => i.id) };
    },
    async expand(offset: number, name?: string): Promise<number> {
      const page = await client.list(KIND, { limit: 100, offset, ...(name !== undefined ? { name } : {}) });
      for (const item of page.items) client.catalog.present(KIND, item);
      return page.items.length;
    },
    close: () => client.close(),
  };
}
