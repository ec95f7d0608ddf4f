// The baseline, and the naive client of the concurrency phase: Node's built-in fetch, the PAT
// exchange by hand, one GET per page, JSON.parse. No presentation, no limiter, no retries.
const EXCHANGE = '/api/iam/v2/auth/personal_access_token';
const VMS = '/api/compute/v1/virtual-machines';

/** @param {{ baseUrl: string, patId: string, patSecret: string }} target */
export function setup(target) {
  let jwt;
  const url = (offset, name) => {
    const u = new URL(VMS, target.baseUrl);
    u.searchParams.set('limit', '100');
    u.searchParams.set('offset', String(offset));
    if (name !== undefined) u.searchParams.set('name', name);
    return u;
  };
  const get = (offset, name) => fetch(url(offset, name), { headers: { authorization: `Bearer ${jwt}`, accept: 'application/json' } });
  return {
    async signIn() {
      const res = await fetch(new URL(EXCHANGE, target.baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ id: target.patId, secret: target.patSecret }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`PAT exchange: HTTP ${res.status}`);
      jwt = JSON.parse(text).token;
      if (typeof jwt !== 'string') throw new Error('PAT exchange: no token in the answer');
    },
    async page(offset, name) {
      const res = await get(offset, name);
      const text = await res.text();
      if (!res.ok) throw new Error(`GET ${VMS}: HTTP ${res.status}`);
      const body = JSON.parse(text);
      const end = offset + body.items.length;
      return { rows: body.items, total: body.total, nextOffset: end < body.total ? end : undefined, ids: body.items.map((i) => i.id) };
    },
    async expand(offset, name) {
      const res = await get(offset, name);
      const text = await res.text();
      return res.ok ? JSON.parse(text).items.length : -res.status;
    },
    async close() {},
  };
}
