import * as assert from 'node:assert/strict';
import { CREDENTIAL_FILE_GLOBS } from '../../../src/core/workspace/credentialFiles';
import { ignoredAlongPath, PathFilter } from '../../../src/core/workspace/ignoreRules';

describe('credential files: never indexed nor sent by a bulk job, whatever matched them', () => {
  const filter = new PathFilter(CREDENTIAL_FILE_GLOBS);
  const skipped = (path: string): boolean => ignoredAlongPath(filter, path) !== undefined;

  it('leaves out environment files with values, private keys, keystores, login files and Terraform state, at any depth', () => {
    for (const path of ['.env', 'api/.env', 'web/.env.local', '.env.production', 'apps/x/.env.staging.local', 'certs/server.pem', 'tls/site.key', 'keys/store.p12', 'android/release.keystore', 'home/.ssh/id_rsa', 'id_ed25519', '.netrc', 'deploy/.git-credentials', '.pypirc', 'infra/terraform.tfstate', 'infra/terraform.tfstate.backup']) {
      assert.ok(skipped(path), path);
    }
  });

  it('keeps examples, templates, public keys and code whose name only resembles one', () => {
    for (const path of ['.env.example', '.env.sample', 'config/.env.template', 'src/env.ts', 'src/environment.ts', 'id_rsa.pub', 'src/keyboard.ts', 'src/keys.ts', 'docs/pem-format.md', 'terraform/main.tf', 'src/netrc.ts']) {
      assert.ok(!skipped(path), path);
    }
  });
});
