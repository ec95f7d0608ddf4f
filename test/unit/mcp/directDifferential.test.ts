import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Fixtures } from '../console/helpers';
import { checkAsync } from '../properties/harness';
import { sandboxEnv } from './helpers';
import { rawHost } from './rawHost';

const call = (params: string, id = '7'): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`;

/** Hostile tools/call lines a host could send, each answered by both paths. */
const HOSTILE = [
  call('{"name":"list_resource_kinds"}'),
  call('{"name":"list_resources","arguments":{"kind":"virtualMachines","limit":2,"constructor":"x"}}'),
  call('{"name":"list_resource_kinds","arguments":{"constructor":1}}'),
  call('{"name":"list_resources","arguments":{"kind":"virtualMachines","limit":2,"__proto__":"y"}}'),
  call('{"name":"list_resources","arguments":{"__proto__":{"kind":"virtualMachines"}}}'),
  call('{"name":"list_resources","arguments":{"kind":"virtualMachines","limit":1e400}}'),
  call('{"name":"list_resources","arguments":{"kind":"virtualMachines","limit":-0}}'),
  call('{"name":"list_resources","arguments":{"kind":"toString"}}'),
  call('{"name":"get_resource","arguments":{"kind":"virtualMachines","id":"\\ud800"}}'),
  call('{"name":"list_resource_kinds","arguments":[]}'),
  call('{"name":"list_resource_kinds","arguments":null}'),
  call('{"name":"toString"}'),
  call('{"name":"__proto__"}'),
  call('{"name":"list_resource_kinds","__proto__":{"x":1}}'),
  call('{"name":"list_resource_kinds","_meta":{"progressToken":1.5}}'),
  call('{"name":"list_resource_kinds","_meta":{"progressToken":1e300}}'),
  call('{"name":"list_resource_kinds","_meta":{"progressToken":-0}}'),
  call('{"name":"list_resource_kinds","_meta":{"__proto__":{"progressToken":1}}}'),
  call('{"name":"list_resource_kinds","_meta":{"constructor":"x"}}'),
  call('{"name":"list_resource_kinds"}', '9007199254740993'),
  call('{"name":"list_resource_kinds"}', '1.5'),
  call('{"name":"list_resource_kinds"}', 'null'),
  call('{"name":"list_resource_kinds"}', '-5'),
  call('{"name":"list_resource_kinds"}', '""'),
  call('{"name":"list_resource_kinds"}', '"__proto__"'),
  '{"jsonrpc":"1.0","id":3,"method":"tools/call","params":{"name":"list_resource_kinds"}}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_resource_kinds"},"extra":1}',
  // The envelope the direct path checks itself, as the SDK's strict request schema does.
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_resource_kinds"},"__proto__":{"x":1}}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_resource_kinds"},"constructor":1}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_resource_kinds"},"result":{}}',
  '{"id":3,"method":"tools/call","params":{"name":"list_resource_kinds"}}',
  '{"jsonrpc":2,"id":3,"method":"tools/call","params":{"name":"list_resource_kinds"}}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call"}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":[]}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":null}',
  call('{"name":"list_resource_kinds"}', '1e300'),
  call('{"name":"list_resource_kinds"}', '9007199254740991'),
  call('{"name":"list_resource_kinds"}', '-9007199254740992'),
  call('{"name":"list_resource_kinds"}', '-0'),
  call('{"name":"list_resource_kinds"}', 'true'),
  call('{"name":"list_resource_kinds"}', '[1]'),
  call('{"name":"list_resource_kinds"}', '{"a":1}'),
  call('{"name":"list_resource_kinds","_meta":{"progressToken":9007199254740993}}'),
  call('{"name":"list_resource_kinds","_meta":{"progressToken":9007199254740991}}'),
  call('{"name":"list_resource_kinds","_meta":{"progressToken":null}}'),
  // What JSON.parse makes of odd text: escaped keys and values, duplicate keys (the last wins), numbers written oddly.
  '{"\\u006a\\u0073onrpc":"2.0","id":3,"\\u006dethod":"tools\\/call","params":{"\\u006eame":"list_resource_kinds"}}',
  '{"jsonrpc":"1.0","jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_resource_kinds"}}',
  '{"jsonrpc":"2.0","jsonrpc":"1.0","id":3,"method":"tools/call","params":{"name":"list_resource_kinds"}}',
  '{"jsonrpc":"2.0","id":1.5,"id":4,"method":"tools/call","params":{"name":"list_resource_kinds"}}',
  '{"jsonrpc":"2.0","id":3,"method":"tools/call\\u0000","params":{"name":"list_resource_kinds"}}',
  call('{"name":"list_resource_kinds"}', '1e21'),
  call('{"name":"list_resource_kinds"}', '1.0'),
  call('{"name":"list_resource_kinds"}', '1E2'),
  call('{"name":"list_resource_kinds"}', '"9007199254740993"'),
  call('{"name":"list_resource_kinds\\u0000"}'),
  call('{"name":"list_resource_kinds","_meta":{"progressToken":1.5,"progressToken":2}}'),
  call('{"name":"list_resource_kinds","_meta":{"progressToken":2,"progressToken":1.5}}'),
  call('{"name":"list_resource_kinds","_meta":{"progressToken":""}}'),
  call('{"name":"list_resource_kinds","arguments":{},"_meta":{}}'),
  call('{"name":"list_resource_kinds","task":null}'),
  call('{"name":"list_resources","arguments":{"kind":"nope","kind":"virtualMachines","limit":2.0}}'),
  call('{"name":"list_resources","arguments":{"kind":"virtualMachines","limit":1E1,"offset":0e5}}'),
  call('{"name":"list_resources","arguments":{"kind":"virtualMachines","limit":2,"__proto__":null}}'),
];

describe('mcp server: the direct path answers every hostile tools/call exactly as the SDK\'s path does', function () {
  this.timeout(60_000);
  const fx = new Fixtures();
  afterEach(() => fx.closeAll());

  it('the same line to a server with the direct path and to one without: the same answer, or the same refusal', async () => {
    const sb = await fx.sandbox({ profile: 'production' });
    const direct = await rawHost(sandboxEnv(sb), true);
    const sdk = await rawHost(sandboxEnv(sb), false);
    try {
      for (const line of HOSTILE) assert.equal(await direct.exchange(line), await sdk.exchange(line), line);
      // The comparison is not vacuous: the plain calls among them were answered on the direct path.
      assert.ok(direct.counts.direct >= 15, `direct calls: ${direct.counts.direct}`);
      assert.equal(sdk.counts.direct, 0);
    } finally {
      await direct.close();
      await sdk.close();
    }
  });

  it('property: envelopes of hostile keys and values (jsonrpc, id, extra keys, params) get the same answer on both paths', async () => {
    const sb = await fx.sandbox({ profile: 'production' });
    const direct = await rawHost(sandboxEnv(sb), true);
    const sdk = await rawHost(sandboxEnv(sb), false);
    // Each part mostly plain (so some lines are direct calls), else hostile.
    const mostly = <T>(plain: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>): fc.Arbitrary<T> => fc.oneof({ arbitrary: plain, weight: 3 }, { arbitrary: hostile, weight: 2 });
    const id = mostly(fc.integer({ min: 0, max: 1e6 }).map(String), fc.constantFrom('"a"', '"__proto__"', '1.5', '-0', '-7', '9007199254740991', '9007199254740992', '1e300', 'null', 'true', '[1]', '{}'));
    const jsonrpc = mostly(fc.constant<string | undefined>('"2.0"'), fc.constantFrom('"1.0"', '2', 'null', undefined));
    const method = mostly(fc.constant('"tools/call"'), fc.constantFrom('"tools/list"', '"x"', '1'));
    const params = mostly(
      fc.constantFrom<string | undefined>('{"name":"list_resource_kinds"}', '{"name":"list_resources","arguments":{"kind":"virtualMachines","limit":2}}', '{"name":"get_usage","_meta":{"progressToken":"t"}}'),
      fc.constantFrom('[]', 'null', '"x"', undefined, '{"name":"list_resource_kinds","_meta":{"progressToken":1e300}}'),
    );
    const extra = mostly(fc.constant<string | undefined>(undefined), fc.constantFrom('"extra":1', '"__proto__":{}', '"constructor":1', '"result":{}', '"error":{}'));
    try {
      await checkAsync(
        fc.asyncProperty(id, jsonrpc, method, params, extra, async (i, j, m, p, x) => {
          const parts = [j === undefined ? undefined : `"jsonrpc":${j}`, `"id":${i}`, `"method":${m}`, p === undefined ? undefined : `"params":${p}`, x];
          const line = `{${parts.filter((part) => part !== undefined).join(',')}}`;
          assert.equal(await direct.exchange(line), await sdk.exchange(line), line);
        }),
        80,
      );
      assert.ok(direct.counts.direct > 0);
    } finally {
      await direct.close();
      await sdk.close();
    }
  });

  it('property: arguments of hostile keys (constructor, __proto__, toString...) and values get the same answer on both paths', async () => {
    const sb = await fx.sandbox({ profile: 'production' });
    const direct = await rawHost(sandboxEnv(sb), true);
    const sdk = await rawHost(sandboxEnv(sb), false);
    const key = fc.constantFrom('kind', 'limit', 'name', 'offset', 'constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'x');
    const value = fc.oneof(fc.constantFrom('virtualMachines', 'web', '', 'constructor'), fc.integer({ min: -2, max: 300 }), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant(1.5));
    try {
      await checkAsync(
        fc.asyncProperty(fc.constantFrom('list_resources', 'list_resource_kinds', 'get_usage'), fc.array(fc.tuple(key, value), { maxLength: 5 }), async (name, pairs) => {
          const args = `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
          const line = call(`{"name":"${name}","arguments":${args}}`);
          assert.equal(await direct.exchange(line), await sdk.exchange(line), line);
        }),
        60,
      );
      assert.ok(direct.counts.direct > 0);
    } finally {
      await direct.close();
      await sdk.close();
    }
  });
});
