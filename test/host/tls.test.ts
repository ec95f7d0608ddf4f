// Issue 22, TLS with a custom CA, in a real extension host: the inference API served over HTTPS
// with a certificate a private CA signed (a reverse proxy in front of the sandbox). The harness
// (test/harness/run-host.mjs) made the CA before code-server started and gave it to the extension
// host the ways users give theirs: NODE_EXTRA_CA_CERTS, and the OS store as OpenSSL reads it
// (SSL_CERT_FILE). What VS Code's fetch patch (@vscode/proxy-agent) does with each, measured:
// with http.systemCertificates on (the default) it passes its own CA list (Node's bundled roots
// plus the OS store) to every connection, which leaves NODE_EXTRA_CA_CERTS out; the OS store is
// read through Node (so OpenSSL's paths) where http.systemCertificatesNode is on (1.139), from
// fixed files before (1.104). With http.systemCertificates off the patch keeps Node's own store,
// NODE_EXTRA_CA_CERTS included.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { NetworkError } from '../../src/core/errors';
import { createInferenceClient } from '../../src/core/inference';
import { requests, sandbox } from './sandbox';

const G = vscode.ConfigurationTarget.Global;

/** An HTTPS server with this key and certificate that forwards every request to the sandbox. */
function httpsFront(key: Buffer, cert: Buffer): Promise<{ server: HttpsServer; baseUrl: string; hits: () => number }> {
  const target = new URL(sandbox().inference);
  let hits = 0;
  const server = createHttpsServer({ key, cert }, (req, res) => {
    hits++;
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname}`, hits: () => hits })),
  );
}

async function chatThrough(baseUrl: string, apiKey = sandbox().apiKey): Promise<string> {
  const client = createInferenceClient({ baseUrl, apiKey: () => Promise.resolve(apiKey), retry: { attempts: 1 } });
  try {
    const result = await client.chat({ model: 'gpt-oss:120b', messages: [{ role: 'user', content: 'Hello over TLS' }] });
    return JSON.stringify(result);
  } finally {
    await client.close();
  }
}

async function withSetting<T>(section: string, key: string, value: unknown, body: () => Promise<T>): Promise<T> {
  await vscode.workspace.getConfiguration(section).update(key, value, G);
  try {
    return await body();
  } finally {
    await vscode.workspace.getConfiguration(section).update(key, undefined, G);
  }
}

describe('TLS with a custom CA (issue 22): the extension reaches an HTTPS endpoint a private CA signed', function () {
  this.timeout(60_000);
  let front: Awaited<ReturnType<typeof httpsFront>> | undefined;

  before(async () => {
    const pki = process.env.STRATUS_TEST_PKI;
    assert.ok(pki, 'STRATUS_TEST_PKI is not set: the harness made no test CA (run through `npm run test:host`)');
    front = await httpsFront(readFileSync(join(pki, 'server.key')), readFileSync(join(pki, 'server.pem')));
  });
  after(() => new Promise<void>((resolve) => (front ? front.server.close(() => resolve()) : resolve())));

  it('a CA in NODE_EXTRA_CA_CERTS: a chat request succeeds once http.systemCertificates is off', async () => {
    assert.ok(front);
    const f = front;
    const chats = (await requests('/v1/chat/completions')).length;
    const answer = await withSetting('http', 'systemCertificates', false, () => chatThrough(f.baseUrl));
    assert.match(answer, /"content"|"text"/, answer);
    assert.ok(f.hits() >= 1);
    assert.equal((await requests('/v1/chat/completions')).length, chats + 1, 'the chat request reached the sandbox through TLS');
  });

  it('with the default settings: the CA in the OS store is trusted where VS Code reads that store through Node (http.systemCertificatesNode, 1.139); where it reads fixed files (1.104) NODE_EXTRA_CA_CERTS alone is refused', async () => {
    assert.ok(front);
    const f = front;
    const throughNode = vscode.workspace.getConfiguration('http').inspect<boolean>('systemCertificatesNode')?.defaultValue === true;
    if (throughNode) {
      const answer = await chatThrough(f.baseUrl);
      assert.match(answer, /"content"|"text"/, answer);
    } else {
      // VS Code 1.104 reads the OS store from fixed files (/etc/ssl/certs/...), which the test
      // cannot change on a shared machine; the CA is then only in NODE_EXTRA_CA_CERTS, left out.
      const secret = 'sk-tls-FAKE-0123456789abcdef';
      await assert.rejects(chatThrough(f.baseUrl, secret), (e: unknown) => e instanceof NetworkError && /certificate|TLS|verify/i.test(e.message) && !e.message.includes(secret));
    }
  });

  it('a self-signed certificate outside the CA is still refused with a NetworkError, whatever http.systemCertificates says', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stratus-tls-rogue-'));
    let rogue: Awaited<ReturnType<typeof httpsFront>> | undefined;
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { cwd: dir, stdio: 'ignore' });
      rogue = await httpsFront(readFileSync(join(dir, 'key.pem')), readFileSync(join(dir, 'cert.pem')));
      const r = rogue;
      const secret = 'sk-tls-FAKE-rogue-0123456789';
      for (const value of [undefined, false]) {
        await withSetting('http', 'systemCertificates', value, () =>
          assert.rejects(chatThrough(r.baseUrl, secret), (e: unknown) => e instanceof NetworkError && /certificate|TLS|verify|self.signed/i.test(e.message) && !e.message.includes(secret)),
        );
      }
      assert.equal(r.hits(), 0, 'no request (and so no key) reached the rogue server');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise<void>((resolve) => (rogue ? rogue.server.close(() => resolve()) : resolve()));
    }
  });
});
