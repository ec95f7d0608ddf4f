import type * as vscode from 'vscode';
import type { Logger } from '../core/log';
import type { Redactor } from '../core/http/redact';

/** Backs the core Logger with VS Code's LogOutputChannel, redacting every line on the way out. */
export function createLogger(channel: vscode.LogOutputChannel, redactor: Redactor): Logger {
  const clean = (message: string | Error, args: unknown[]): string => {
    const head = message instanceof Error ? `${message.name}: ${message.message}` : message;
    const tail = args.map(describe).join(' ');
    return redactor.redact(tail ? `${head} ${tail}` : head);
  };
  return {
    trace: (m, ...a) => channel.trace(clean(m, a)),
    debug: (m, ...a) => channel.debug(clean(m, a)),
    info: (m, ...a) => channel.info(clean(m, a)),
    warn: (m, ...a) => channel.warn(clean(m, a)),
    error: (m, ...a) => channel.error(clean(m, a)),
  };
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
