// Issue 22, trust: a plain http:// base URL is warned about, except on loopback.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { isPlainHttpToRemoteHost } from '../../../src/core/http/plainHttp';
import { check } from '../properties/harness';

const loopback = fc.oneof(
  fc.constantFrom('localhost', 'LOCALHOST', 'app.localhost', '[::1]', '[0:0:0:0:0:0:0:1]', '127.1', '0x7f.1'),
  fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `127.${a}.${b}.${c}`),
);
const remote = fc.oneof(
  fc.constantFrom('example.com', '127.0.0.1.nip.io', 'localhost.evil.com', 'localhostx', '10.0.0.1', '0.0.0.0', '[::ffff:8.8.8.8]', '128.0.0.1', '192.168.1.10', 'xn--80ak6aa92e.com'),
  fc.domain().filter((d) => !/(^|\.)localhost$/i.test(d)),
);

describe('trust: plain http is warned about except on loopback', () => {
  it('property: loopback hosts are never warned about, over http or https', () => {
    check(
      fc.property(loopback, fc.constantFrom('http', 'https'), fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), (host, scheme, port) => {
        const url = new URL(`${scheme}://${host}${port ? `:${port}` : ''}/v1`);
        assert.equal(isPlainHttpToRemoteHost(url), false, url.href);
      }),
      300,
    );
  });

  it('property: any other host is warned about over http, never over https', () => {
    check(
      fc.property(remote, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), (host, port) => {
        const at = `${host}${port ? `:${port}` : ''}/v1`;
        assert.equal(isPlainHttpToRemoteHost(new URL(`http://${at}`)), true, `http://${at}`);
        assert.equal(isPlainHttpToRemoteHost(new URL(`https://${at}`)), false, `https://${at}`);
      }),
      300,
    );
  });
});
