import type { Logger } from '../../../../src/core/log';

/** A logger that keeps every line (with its arguments rendered) for assertions. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record =
    (level: string) =>
    (message: string | Error, ...args: unknown[]): void => {
      const text = message instanceof Error ? `${message.name}: ${message.message}` : message;
      lines.push([`[${level}] ${text}`, ...args.map((a) => JSON.stringify(a))].join(' '));
    };
  return {
    lines,
    trace: record('trace'),
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
}
