import type { ServerResponse } from 'node:http';
import { AUTH_PATH, fakeJwt, type Fixtures, json, jwtClaims, type Stub } from '../console/helpers';

/**
 * A stub console that holds every list page (by its `limit`) until released: `held` the release of
 * each page asked for, `aborted` the pages whose request the client closed first, `until` resolves
 * once `done()` holds (checked after each request and each close).
 */
export async function holdingConsole(fx: Fixtures): Promise<{ stub: Stub; held: Map<string, () => void>; aborted: Set<string>; until: (done: () => boolean) => Promise<void> }> {
  const held = new Map<string, () => void>();
  const aborted = new Set<string>();
  let seen: () => void = () => undefined;
  const stub = await fx.stub((req, res: ServerResponse) => {
    if (req.path === AUTH_PATH) {
      res.end(fakeJwt(jwtClaims()));
      return;
    }
    const limit = req.query.get('limit') ?? '';
    res.on('close', () => {
      if (!res.writableEnded) aborted.add(limit);
      seen();
    });
    held.set(limit, () => json(res, 200, { items: [{ id: `vm-${limit}`, name: 'one' }], total: 1 }));
    seen();
  });
  const until = async (done: () => boolean): Promise<void> => {
    while (!done()) await new Promise<void>((resolve) => (seen = resolve));
  };
  return { stub, held, aborted, until };
}
