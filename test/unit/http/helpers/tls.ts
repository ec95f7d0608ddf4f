import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  caCert: string;
  serverKey: string;
  serverCert: string;
}

/**
 * A throwaway CA and a server certificate for 127.0.0.1/localhost, made with openssl at test time
 * (so no private key lives in the repository). Undefined when openssl is not installed.
 */
export function makeTestPki(): TestPki | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'stratus-pki-'));
  const run = (...args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  };
  try {
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Stratus Test CA');
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
    writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'ext.cnf');
    return {
      caCert: readFileSync(join(dir, 'ca.crt'), 'utf8'),
      serverKey: readFileSync(join(dir, 'server.key'), 'utf8'),
      serverCert: readFileSync(join(dir, 'server.crt'), 'utf8'),
    };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
