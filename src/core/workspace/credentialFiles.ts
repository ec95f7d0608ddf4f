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

const ENV_VARIANTS = new Set(['local', 'development', 'production', 'staging', 'test', 'prod', 'dev']);
const KEY_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.tfstate', '.tfstate.backup'];
const NAMED_FILES = new Set(['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', '.netrc', '_netrc', '.pgpass', '.git-credentials', '.pypirc']);

/**
 * Whether the file at `path` (`/` or `\` separated) is one CREDENTIAL_FILE_GLOBS names, by its
 * name alone, in any letter case (a prompt before reading one errs on the side of asking).
 */
export function isCredentialFile(path: string): boolean {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase();
  if (name === '.env' || NAMED_FILES.has(name)) return true;
  if (name.startsWith('.env.')) {
    const variant = name.slice('.env.'.length);
    if (ENV_VARIANTS.has(variant) || variant.endsWith('.local')) return true;
  }
  return KEY_EXTENSIONS.some((ext) => name.endsWith(ext));
}
