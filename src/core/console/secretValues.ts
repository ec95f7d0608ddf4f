import { REDACTED } from '../http/redact';
import { isSecretName } from './itemBrief';

/*
 * Secrets a console record holds as values, whatever the field is called (a `description` with a
 * private key pasted in, an `env` list of `DB_PASSWORD=...`, a download link with its signature):
 * recognised by their shape and replaced. The field-name rule (itemBrief.ts, isSecretName) and the
 * known-secrets redactor (http/redact.ts) cover the rest. Every pattern here runs in linear time on
 * hostile text: each starts only at a token's edge and nothing nested can backtrack.
 */

/** A PEM private key block, to its END line, or to the end of the text when cut before it. */
const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/g;

/** A JWT (or JWS): base64url of `{"` (`eyJ`), then a payload and an optional signature. */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

/**
 * `NAME=value` and `NAME: value`: environment strings, connection strings (`Password=...;`),
 * query parameters (`X-Amz-Signature=...`, `sig=...`), quoted or not. Only a secret-named NAME
 * (isSecretName) loses its value. A URL's `scheme://` is no assignment, so its query's
 * parameters are each found.
 */
const ASSIGNMENT = /(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_.-]{0,63})(["']?[ \t]{0,4}[=:][ \t]{0,4})(?!\/\/)("[^"\n]*"?|'[^'\n]*'?|[^\s"'&;,<>]+)/g;

function redactPem(text: string): string {
  if (!text.includes('-----BEGIN ')) return text;
  let out = '';
  let from = 0;
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    const end = text.indexOf('-----END ', PEM_BEGIN.lastIndex);
    const close = end < 0 ? -1 : text.indexOf('-----', end + 9);
    const stop = close < 0 ? text.length : close + 5;
    out += `${text.slice(from, m.index)}${REDACTED}`;
    from = stop;
    PEM_BEGIN.lastIndex = stop;
  }
  return out + text.slice(from);
}

/** `text` with private keys, JWTs and the values of secret-named assignments replaced. */
export function redactSecretValues(text: string): string {
  return redactPem(text)
    .replace(JWT, REDACTED)
    .replace(ASSIGNMENT, (whole, name: string, separator: string) => (isSecretName(name) ? `${name}${separator}${REDACTED}` : whole));
}
