import { redactSecretText } from '../core/console/recordRedaction';
import { parseOptions, USAGE_TEXT } from './options';
import { createStratusMcp } from './server';
import { LineStdioTransport } from './stdioTransport';

/*
 * The stdio entry (bundled as dist/mcp.js): `node dist/mcp.js [--allow-writes] ...`. stdout is the
 * protocol channel: nothing else is ever written there. stderr gets one line per problem, passed
 * through the redactor; never a stack trace or a secret.
 */

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  if (options.help) {
    process.stderr.write(USAGE_TEXT);
    return;
  }
  const mcp = createStratusMcp(options);
  const say = (line: string): void => {
    process.stderr.write(`stratus-mcp: ${mcp.redactor.redact(redactSecretText(line)).replace(/[\r\n]+/g, ' ')}\n`);
  };
  // A crash in one call never ends the server: the call gets its tool error, the rest goes on.
  process.on('uncaughtException', (error) => say(`unexpected error (${error.name}); the server goes on.`));
  process.on('unhandledRejection', (error) => say(`unexpected error (${error instanceof Error ? error.name : typeof error}); the server goes on.`));
  if (mcp.setupProblem) say(mcp.setupProblem);
  const transport = new LineStdioTransport();
  // Once: closing the server closes the transport, whose onclose is this again (an endless
  // recursion that overflowed the stack on every shutdown).
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void mcp.close().finally(() => process.exit(0));
  };
  transport.onclose = stop;
  process.stdin.on('end', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await mcp.connect(transport);
  say(`ready (${options.allowWrites ? 'writes allowed' : 'read-only'}).`);
}

main().catch((error: unknown) => {
  process.stderr.write(`stratus-mcp: could not start (${error instanceof Error ? error.name : typeof error}).\n`);
  process.exit(1);
});
