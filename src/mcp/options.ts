import { parseGatewayHeaders } from '../core/http/gatewayHeaders';
import { isTierId, type TierId } from '../core/usage/rates';

/*
 * The server's flags and environment, parsed without side effects (main.ts reads process.argv and
 * process.env once and passes them here). Secrets come from the environment only: a flag that
 * carries one would show in `ps` and in the host's configuration file.
 */

export const ENV = {
  baseUrl: 'STRATUS_CONSOLE_BASE_URL',
  patId: 'STRATUS_PAT_ID',
  patSecret: 'STRATUS_PAT_SECRET',
  /** A gateway's fixed headers, a JSON object (no secrets). */
  headers: 'STRATUS_CONSOLE_HEADERS',
  /** A gateway's secret headers, a JSON object: registered with the redactor. */
  secretHeaders: 'STRATUS_CONSOLE_SECRET_HEADERS',
  /** The extension's usage folder (set only when VS Code starts the server). */
  usageDir: 'STRATUS_USAGE_DIR',
  /** The purchased tier (`tier1`..`tier4`, `monthly`). */
  tier: 'STRATUS_USAGE_TIER',
} as const;

export interface McpOptions {
  readonly baseUrl: string | undefined;
  readonly patId: string | undefined;
  readonly patSecret: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly secretHeaders: Readonly<Record<string, string>>;
  /** Write tools are listed and may run. */
  readonly allowWrites: boolean;
  /** Delete and power off run without asking, also where the host cannot ask (no elicitation). */
  readonly allowDestructiveWithoutConfirmation: boolean;
  /** The console may be reached over plain http on a host that is not this machine. */
  readonly allowPlainHttp: boolean;
  readonly usageDir: string | undefined;
  readonly tier: TierId;
  /** Following an activity gives up (the activity goes on) after this long. */
  readonly followTimeoutMs: number;
  /** First polling delay of an activity. */
  readonly pollMs: number;
  /** No response headers, or silence within a body, for this long fails the request. */
  readonly timeoutMs: number;
  /** What was wrong in the flags or environment (each one line); the server starts anyway and says it on every call. */
  readonly problems: readonly string[];
  readonly help: boolean;
}

export const USAGE_TEXT = `Stratus cloud console MCP server (stdio).

  node dist/mcp.js [flags]

Environment:
  ${ENV.baseUrl}   console root, e.g. https://console.example.eu (required)
  ${ENV.patId}              personal access token id (required)
  ${ENV.patSecret}          personal access token secret (required)
  ${ENV.headers}     JSON object of a gateway's fixed headers (optional)
  ${ENV.secretHeaders}  JSON object of a gateway's secret headers (optional)
  ${ENV.tier}          purchased tier: tier1..tier4 or monthly (default tier1)
  ${ENV.usageDir}           the extension's usage folder (set by VS Code)

Flags:
  --allow-writes                               offer create, modify, power and delete tools (default: read-only)
  --allow-destructive-without-confirmation     delete and power off without asking the user (hosts without MCP elicitation)
  --allow-plain-http                           allow http:// to a host that is not this machine
  --follow-timeout-minutes <n>                 stop following an activity after n minutes (default 30)
  --poll-ms <n>                                first polling delay of an activity (default 1000)
  --timeout-seconds <n>                        request timeout: first byte and silence within a body (default 60)
  --help                                       this text
`;

function positive(name: string, raw: string | undefined, problems: string[], min: number, max: number): number | undefined {
  const n = raw === undefined ? NaN : Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    problems.push(`${name} needs a number from ${min} to ${max}.`);
    return undefined;
  }
  return n;
}

function headersFrom(name: string, raw: string | undefined, problems: string[]): Record<string, string> {
  if (raw === undefined || raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    problems.push(`${name} is not a JSON object of header names to values.`);
    return {};
  }
  const parsed = parseGatewayHeaders(value);
  // Names only: a value may be a secret.
  for (const refused of parsed.refused) problems.push(`${name}: header "${refused.name}" is refused (${refused.reason}).`);
  return { ...parsed.headers };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The options of one run. Unknown flags are problems, never ignored silently. */
export function parseOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): McpOptions {
  const problems: string[] = [];
  let allowWrites = false;
  let allowDestructiveWithoutConfirmation = false;
  let allowPlainHttp = false;
  let help = false;
  let followTimeoutMs = 30 * 60_000;
  let pollMs = 1_000;
  let timeoutMs = 60_000;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--allow-writes':
        allowWrites = true;
        break;
      case '--allow-destructive-without-confirmation':
        allowDestructiveWithoutConfirmation = true;
        break;
      case '--allow-plain-http':
        allowPlainHttp = true;
        break;
      case '--follow-timeout-minutes': {
        const n = positive(flag, value(), problems, 0.01, 24 * 60);
        if (n !== undefined) followTimeoutMs = n * 60_000;
        break;
      }
      case '--poll-ms': {
        const n = positive(flag, value(), problems, 1, 60_000);
        if (n !== undefined) pollMs = n;
        break;
      }
      case '--timeout-seconds': {
        const n = positive(flag, value(), problems, 0.05, 3_600);
        if (n !== undefined) timeoutMs = n * 1_000;
        break;
      }
      case '--help':
      case '-h':
        help = true;
        break;
      default:
        // A flag's name only (cut), never a value: an argument could be a secret pasted by mistake.
        problems.push(/^--?[A-Za-z][\w-]{0,40}$/.test(flag) ? `Unknown flag "${flag}" (see --help).` : `Unexpected argument #${i + 1} (not shown; see --help).`);
    }
  }
  const rawTier = nonEmpty(env[ENV.tier]);
  if (rawTier !== undefined && !isTierId(rawTier)) problems.push(`${ENV.tier} must be one of tier1, tier2, tier3, tier4, monthly.`);
  return {
    baseUrl: nonEmpty(env[ENV.baseUrl])?.trim(),
    patId: nonEmpty(env[ENV.patId]),
    patSecret: nonEmpty(env[ENV.patSecret]),
    headers: headersFrom(ENV.headers, env[ENV.headers], problems),
    secretHeaders: headersFrom(ENV.secretHeaders, env[ENV.secretHeaders], problems),
    allowWrites,
    allowDestructiveWithoutConfirmation,
    allowPlainHttp,
    usageDir: nonEmpty(env[ENV.usageDir]),
    tier: rawTier !== undefined && isTierId(rawTier) ? rawTier : 'tier1',
    followTimeoutMs,
    pollMs,
    timeoutMs,
    problems,
    help,
  };
}
