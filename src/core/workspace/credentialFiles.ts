/**
 * Files that hold credentials by their name: environment files with real values, private keys and
 * keystores, login files, Terraform state. A workspace that does not .gitignore them (a fresh
 * clone, a scratch folder) still never has them indexed for search, used as completion context or
 * sent by a bulk job (Run Prompt over Files, embeddings), whatever glob matched them. Examples and
 * templates (`.env.example`) hold no secret and stay searchable. VS Code globs, applied with the
 * user's `files.exclude`.
 */
export const CREDENTIAL_FILE_GLOBS: readonly string[] = [
  '**/.env',
  '**/.env.{local,development,production,staging,test,prod,dev}',
  '**/.env.*.local',
  '**/*.{pem,key,p12,pfx,jks,keystore}',
  '**/id_{rsa,dsa,ecdsa,ed25519}',
  '**/{.netrc,_netrc,.pgpass,.git-credentials,.pypirc}',
  '**/*.{tfstate,tfstate.backup}',
];
