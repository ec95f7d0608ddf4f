import { REDACTED } from '../http/redact';

/*
 * The one redactor of console records sent to a model (Ask @stratus, and any other consumer of a
 * resource or an activity as data): secrets found by where they sit (a field, a name/value pair or
 * a `[name, value]` tuple whose name says it holds one) and by what they look like wherever they
 * sit (a PEM private key, a JWT, `scheme://user:password@`, `NAME=value` or `"name": "value"` with a
 * secret-like name, which covers environment strings, connection strings and credential query
 * parameters such as presigned and SAS signatures, and JSON held in a string, walked as JSON).
 * Every scan is one forward pass with bounded backtracking: the text comes from the cloud.
 */

/**
 * A field named like a credential: its value is never sent. Tested on the name in snake case
 * (`accessKey`, `access-key` and `ACCESS_KEY` all read `access_key`), so a word is found at its edges:
 * `key` as the last word (`accessKey`, `storage_key`, but not `keyName` or `monkey`; a public key is
 * no secret), `pwd`, `dsn`, kubeconfigs, VM user data and cloud-init scripts, connection strings,
 * a registry's `auth`, a `jwt`, signatures (`X-Amz-Signature`, `X-Goog-Signature`, a SAS `sig`).
 */
const SECRET_NAME = /pass(word|wd|phrase)?|(^|_)pwd(_|$)|secret|token|(api|access|auth|private|ssh|master|account|storage|signing|encryption)_?key$|(^|_)key$|credential|authori[sz]ation|cookie|kube_?config|user_?data|cloud_?(init|config)|conn(ection)?_?str(ing)?|(^|_)dsn$|^pin$|^otp$|(^|_)auth$|(^|_)jwt$|signature$|(^|_)sig$/;
const PUBLIC_KEY = /(^|_)public_?key$/;

function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();
}

/** Words one of which every secret name holds: a test that allocates nothing, before the full one. */
const SECRET_WORD = /pass|pwd|secret|token|key|credential|authori|cookie|config|data|init|conn|dsn|pin|otp|auth|jwt|sig/i;

export function isSecretName(name: string): boolean {
  if (!SECRET_WORD.test(name)) return false;
  const words = snakeCase(name);
  return SECRET_NAME.test(words) && !PUBLIC_KEY.test(words);
}

/** A PEM private key, to its END line or, cut short, to the end of the text. */
const PEM_PRIVATE = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g;
/** A JWT (header and payload in base64url, `eyJ` = `{"`), started only where a run of its characters starts. */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
/** `scheme://user:password@` and `scheme://:password@` (redis): the password goes, the user stays. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]{0,30}:\/\/)([^\s/:@]{0,256}):([^\s/@]{1,1024})@/gi;
/**
 * A name followed by `=` or `:`, quoted or not (also JSON-escaped, `\"name\":`), started only where a
 * name starts: `DB_PASSWORD=…`, `?X-Amz-Signature=…`, `AccountKey=…;`, `"password": "…"`.
 */
const ASSIGNMENT = /(?<![\w.\\-])(\\{0,8}["']|)([A-Za-z_][\w.-]{0,80})\1\s{0,3}[=:]\s{0,3}/g;
/** The value after a secret name: an authorization scheme and its token, a quoted string, or a run up to a separator. */
const VALUE = /(Bearer|Basic|Token)\s+[^\s"',;&\\]+|"(?:[^"\\\n]|\\.){0,512}"|'[^'\n]{0,512}'|(\\{0,8}["']?)[^\s"'&;,}\])\\]+/y;

function redactValueAt(text: string, at: number): { end: number; replacement: string } | undefined {
  // Already redacted (a record's field, then the text it is printed in): left as it is, so redacting
  // twice gives what redacting once gave (the value scan would stop at its `]` and leave one behind).
  const quoted = text[at] === '"' || text[at] === "'" ? 1 : 0;
  if (text.startsWith(REDACTED, at + quoted)) return undefined;
  VALUE.lastIndex = at;
  const match = VALUE.exec(text);
  if (!match) return undefined;
  const value = match[0];
  // The scheme of an authorization value stays; a quoted value keeps its quotes, an escaped one its escape.
  const quote = value[0] ?? '';
  const replacement = match[1] !== undefined ? `${match[1]} ${REDACTED}` : match[2] === undefined ? `${quote}${REDACTED}${quote}` : `${match[2]}${REDACTED}`;
  return { end: VALUE.lastIndex, replacement };
}

function redactAssignments(text: string): string {
  let out = '';
  let copied = 0;
  ASSIGNMENT.lastIndex = 0;
  for (let match = ASSIGNMENT.exec(text); match; match = ASSIGNMENT.exec(text)) {
    const afterName = ASSIGNMENT.lastIndex;
    // A name that is no secret: its value is scanned as text like the rest (it may hold `k=v` itself).
    if (!isSecretName(match[2] ?? '')) continue;
    const value = redactValueAt(text, afterName);
    if (!value) continue;
    out += text.slice(copied, afterName) + value.replacement;
    copied = value.end;
    ASSIGNMENT.lastIndex = value.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * What each look above needs somewhere in the text (`=` or `:` for an assignment and a URL's
 * credentials, `eyJ` for a JWT, `-----BEGIN` for a PEM key): a text with none of them holds no
 * secret by look, found in one scan (most names, ids and states of a listing).
 */
const ANY_LOOK = /[=:]|eyJ|-----BEGIN/;

/** Whether `text` has what some secret's look needs (false: redactSecretText returns it as it is). */
export function mayHoldSecretByLook(text: string): boolean {
  return text.length >= 4 && ANY_LOOK.test(text);
}

/** `text` with every secret found by its look replaced (see the module's note); linear in its length. */
export function redactSecretText(text: string): string {
  if (!mayHoldSecretByLook(text)) return text;
  const out = text
    .replace(PEM_PRIVATE, REDACTED)
    .replace(URL_PASSWORD, `$1$2:${REDACTED}@`)
    .replace(JWT, REDACTED);
  return redactAssignments(out);
}

export interface Limits {
  readonly depth: number;
  readonly strings: number;
  readonly items: number;
}

export const FULL_LIMITS: Limits = { depth: 4, strings: 400, items: 20 };
export const SHORT_LIMITS: Limits = { depth: 2, strings: 80, items: 5 };
/** JSON found inside a string is walked whole (its string is cut as one afterwards). */
const EMBEDDED: Limits = { depth: 8, strings: Number.POSITIVE_INFINITY, items: Number.POSITIVE_INFINITY };
/** JSON inside a string inside a string…: each level doubles the escapes, so this many levels need a megabyte. */
const MAX_EMBEDDING = 16;

/**
 * The label of a name/value pair (`{"name": "DB_PASSWORD", "value": "…"}`, `{"Key": …, "Value": …}`:
 * environment variables, settings, tags), or undefined when `value` is no such pair.
 */
function pairLabel(value: Record<string, unknown>): { labelKey: string; valueKey: string; label: string } | undefined {
  const keys = Object.keys(value);
  const valueKey = keys.find((k) => k.toLowerCase() === 'value');
  const labelKey = keys.find((k) => k.toLowerCase() === 'name') ?? keys.find((k) => k.toLowerCase() === 'key');
  const label = labelKey === undefined ? undefined : value[labelKey];
  return valueKey !== undefined && labelKey !== undefined && typeof label === 'string' ? { labelKey, valueKey, label } : undefined;
}

/** JSON held in a string (`"{\"password\": …}"`), or undefined. */
function embeddedJson(text: string): unknown {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (!((first === '{' && last === '}') || (first === '[' && last === ']'))) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

function redactString(text: string, embedding: number): string {
  const json = embeddedJson(text);
  if (json === undefined) return redactSecretText(text);
  // Deeper than any real record nests JSON in strings: nothing of it is sent.
  if (embedding >= MAX_EMBEDDING) return REDACTED;
  return JSON.stringify(walk(json, EMBEDDED, 0, embedding + 1));
}

function walk(value: unknown, limits: Limits, depth: number, embedding: number): unknown {
  if (typeof value === 'string') {
    const text = redactString(value, embedding);
    return text.length > limits.strings ? `${text.slice(0, limits.strings)}…` : text;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= limits.depth) return Array.isArray(value) ? `[${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    // A `[name, value]` tuple whose name says it holds a secret (`[["DB_PASSWORD", "…"]]`).
    if (value.length === 2 && typeof value[0] === 'string' && isSecretName(value[0])) return [walk(value[0], limits, depth + 1, embedding), REDACTED];
    const kept = value.slice(0, limits.items).map((v) => walk(v, limits, depth + 1, embedding));
    return value.length > limits.items ? [...kept, `… ${value.length - limits.items} more`] : kept;
  }
  const record = value as Record<string, unknown>;
  // In a pair, the label names the value: its own field (`key`) is no secret, the value is one when the label says so.
  const pair = pairLabel(record);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(record)) {
    const secret = pair && key === pair.labelKey ? false : pair && key === pair.valueKey ? isSecretName(pair.label) : isSecretName(key);
    out[redactSecretText(key)] = secret ? REDACTED : walk(v, limits, depth + 1, embedding);
  }
  return out;
}

/**
 * `value` with its secrets replaced (by name: fields, name/value pairs and tuples; by look: see the
 * module's note, JSON inside strings walked as JSON), long strings and lists cut, deep objects summarised.
 */
export function redactFields(value: unknown, limits: Limits = FULL_LIMITS, depth = 0): unknown {
  return walk(value, limits, depth, 0);
}
