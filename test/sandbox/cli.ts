/**
 * tsx test/sandbox/cli.ts [--port N] [--host H] [--profile contract|production]
 *                         [--vms N] [--activity-step-ms N] [--jwt-lifetime S] [--chunk-delay-ms N]
 *                         [--production-lists ranged|plain] [--console-paths all|production] [--gateway-header NAME=VALUE]
 *                         [--batch available|not_found|forbidden] [--batch-step-ms N]
 * First stdout line: one JSON object {"inference", "console", "apiKey", "patId", "patSecret"};
 * then human-readable help. Stops cleanly on SIGINT/SIGTERM.
 */
import { helpText } from './help';
import { startSandbox } from './index';
import type { SandboxOptions } from './types';

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: tsx test/sandbox/cli.ts [--port N] [--host H] [--profile contract|production] [--vms N] [--activity-step-ms N] [--jwt-lifetime S] [--chunk-delay-ms N] [--production-lists ranged|plain] [--console-paths all|production] [--gateway-header NAME=VALUE] [--batch available|not_found|forbidden] [--batch-step-ms N]\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): SandboxOptions {
  const options: SandboxOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) usage(`${flag} needs a value`);
      return v;
    };
    const int = (): number => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) usage(`${flag} needs a non-negative integer`);
      return n;
    };
    switch (flag) {
      case '--port':
        options.port = int();
        break;
      case '--host':
        options.host = value();
        break;
      case '--profile': {
        const profile = value();
        if (profile !== 'contract' && profile !== 'production') usage('--profile must be contract or production');
        options.profile = profile;
        break;
      }
      case '--vms':
        options.vmCount = int();
        break;
      case '--activity-step-ms':
        options.activityStepMs = int();
        break;
      case '--jwt-lifetime':
        options.jwtLifetimeSeconds = int();
        break;
      case '--chunk-delay-ms':
        options.chunkDelayMs = int();
        break;
      case '--production-lists': {
        const style = value();
        if (style !== 'ranged' && style !== 'plain') usage('--production-lists must be ranged or plain');
        options.productionLists = style;
        break;
      }
      case '--console-paths': {
        const mode = value();
        if (mode !== 'all' && mode !== 'production') usage('--console-paths must be all or production');
        options.consolePaths = mode;
        break;
      }
      case '--gateway-header': {
        const [header, ...rest] = value().split('=');
        if (!header || rest.length === 0) usage('--gateway-header takes NAME=VALUE');
        options.gateway = { header, value: rest.join('=') };
        break;
      }
      case '--batch': {
        const mode = value();
        if (mode !== 'available' && mode !== 'not_found' && mode !== 'forbidden') usage('--batch must be available, not_found or forbidden');
        options.batch = mode;
        break;
      }
      case '--batch-step-ms':
        options.batchStepMs = int();
        break;
      case '--help':
      case '-h':
        process.stdout.write(`${helpText(options.profile ?? 'contract', 'http://127.0.0.1:<port>')}\n`);
        process.exit(0);
        break;
      default:
        usage(`unknown argument ${arg}`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const sandbox = await startSandbox(options);
  const line = {
    inference: sandbox.inferenceUrl,
    console: sandbox.consoleUrl,
    apiKey: sandbox.credentials.apiKey,
    patId: sandbox.credentials.patId,
    patSecret: sandbox.credentials.patSecret,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  process.stdout.write(`${helpText(sandbox.profile, sandbox.consoleUrl)}\nPress Ctrl+C to stop.\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
