import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { CREDENTIAL_FILE_GLOBS, isCredentialFile } from '../../../src/core/workspace/credentialFiles';
import { ignoredAlongPath, PathFilter } from '../../../src/core/workspace/ignoreRules';
import { check } from '../properties/harness';

const CREDENTIALS = ['.env', 'api/.env', 'web/.env.local', '.env.production', 'apps/x/.env.staging.local', 'certs/server.pem', 'tls/site.key', 'keys/store.p12', 'android/release.keystore', 'home/.ssh/id_rsa', 'id_ed25519', '.netrc', 'deploy/.git-credentials', '.pypirc', 'infra/terraform.tfstate', 'infra/terraform.tfstate.backup'];
const LOOKALIKES = ['.env.example', '.env.sample', 'config/.env.template', 'src/env.ts', 'src/environment.ts', 'id_rsa.pub', 'src/keyboard.ts', 'src/keys.ts', 'docs/pem-format.md', 'terraform/main.tf', 'src/netrc.ts'];

describe('credential files: never indexed nor sent by a bulk job, whatever matched them', () => {
  const filter = new PathFilter(CREDENTIAL_FILE_GLOBS);
  const skipped = (path: string): boolean => ignoredAlongPath(filter, path) !== undefined;

  it('leaves out environment files with values, private keys, keystores, login files and Terraform state, at any depth', () => {
    for (const path of CREDENTIALS) {
      assert.ok(skipped(path), path);
      assert.ok(isCredentialFile(path), `${path} (one path)`);
    }
  });

  it('keeps examples, templates, public keys and code whose name only resembles one', () => {
    for (const path of LOOKALIKES) {
      assert.ok(!skipped(path), path);
      assert.ok(!isCredentialFile(path), `${path} (one path)`);
    }
  });

  it('names a single path\'s file as the globs do (isCredentialFile, which the agent asks before reading), in any letter case', () => {
    const head = fc.constantFrom('', '.env', 'env', 'id_rsa', 'id_ed25519', 'server', 'terraform', '.netrc', '_netrc', '.pgpass', '.git-credentials', '.pypirc', 'x', '.');
    const middle = fc.constantFrom('', '.', '.x', '.local', '.production', '.staging', '.dev', '.example', '-', 'x', '.tfstate');
    const tail = fc.constantFrom('', '.local', '.pem', '.key', 'key', '.p12', '.pfx', '.jks', '.keystore', '.tfstate', '.tfstate.backup', '.backup', '.pub', '.ts', '.env');
    const folder = fc.constantFrom('', 'api/', 'a/b/', '.ssh/', 'infra/');
    check(
      fc.property(folder, head, middle, tail, (dir, h, m, t) => {
        const name = `${h}${m}${t}`;
        if (name === '') return;
        assert.equal(isCredentialFile(`${dir}${name}`), skipped(`${dir}${name}`), `${dir}${name}`);
      }),
      400,
    );
    assert.ok(isCredentialFile('API/.ENV') && isCredentialFile('C:\\certs\\Site.PEM') && isCredentialFile('deploy\\.env.local'));
    assert.ok(!isCredentialFile('.env.example') && !isCredentialFile('src/env.ts') && !isCredentialFile('id_rsa.pub'));
  });
});
