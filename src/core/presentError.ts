import { isStratusError, NetworkError, NotFoundError, OutcomeUnknownError, RateLimitError, type InterruptedError } from './errors';

/**
 * What the edge can offer next to an error message; src/platform/errorNotification.ts turns these
 * into buttons. `openSizeSetting`, `pickSpeechModel` and `changeOptions` are offered by the
 * transcription presenter only; `retry`, `pickSpeechModel` and `changeOptions` need the feature to
 * say how (they re-run what failed), the others are commands of the extension or of VS Code.
 */
export type ErrorAction =
  | 'setApiKey'
  | 'signIn'
  | 'pickModel'
  | 'openSettings'
  | 'retry'
  | 'showLog'
  | 'showUsage'
  | 'openSizeSetting'
  | 'pickSpeechModel'
  | 'changeOptions';

export interface PresentedError {
  /** One or two sentences for people: what happened and what to do. No secrets (core errors are redacted). */
  readonly message: string;
  readonly actions: readonly ErrorAction[];
  /** For rate limits: when a retry makes sense. */
  readonly retryAfterSeconds?: number;
  /** The user cancelled: say nothing. */
  readonly cancelled: boolean;
}

/** Translates any thrown value into a message and actions, switching on the typed `kind` only. */
export function presentError(error: unknown, now: number = Date.now()): PresentedError {
  const plain = (message: string, actions: ErrorAction[] = ['showLog']): PresentedError => ({ message, actions, cancelled: false });
  if (!isStratusError(error)) {
    return plain(`Unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  }
  switch (error.kind) {
    case 'cancelled':
      return { message: 'Cancelled.', actions: [], cancelled: true };
    case 'auth':
      return error.reason === 'missing'
        ? plain(`No ${error.secretName ?? 'credential'} is set.`, [error.secretName?.includes('token') ? 'signIn' : 'setApiKey'])
        : plain(`The ${error.secretName ?? 'credential'} was rejected (${error.status ?? 401}). Set a valid one.`, [error.secretName?.includes('token') ? 'signIn' : 'setApiKey', 'showLog']);
    case 'forbidden':
      return plain(`Permission denied (403): ${sentence(error.message)}. Check the token's permissions in the console.`);
    case 'not_found':
      return error instanceof NotFoundError && error.isModelNotFound
        ? plain(`The model is not available on this service (404 model_not_found). Pick another model.`, ['pickModel'])
        : plain(`Not found (404): ${error.message}`);
    case 'rate_limit': {
      const retryAt = error instanceof RateLimitError ? error.retryAt : undefined;
      const seconds = retryAt ? waitSeconds(retryAt.getTime() - now) : undefined;
      return {
        message: seconds === undefined
          ? 'Rate limit reached (429). Wait a little and retry, or move to a higher tier.'
          : `Rate limit reached (429). Retry in ${seconds} s, or move to a higher tier.`,
        actions: ['retry'],
        ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }),
        cancelled: false,
      };
    }
    case 'api':
      if (error.status === 400) {
        return plain(`The service refused the request (400${error.param ? `, parameter \`${error.param}\`` : ''}): ${error.message}`, error.param === 'model' ? ['pickModel'] : ['showLog']);
      }
      return plain(`The service failed (${error.status}${error.type ? ` ${error.type}` : ''}): ${sentence(error.message)}. Retry in a moment.`, ['retry', 'showLog']);
    case 'timeout':
      return plain(`The service did not answer in time (${error.phase.replace('_', ' ')} timeout). Check the network or the base URL.`, ['retry', 'openSettings', 'showLog']);
    case 'stream_stalled':
      // A stall after part of an answer is an InterruptedError: here nothing of the answer came.
      return plain(`The service stopped sending before any of the answer arrived (nothing for ${seconds(error.idleMs)}). Retry; if it keeps happening, the service may be overloaded.`, ['retry', 'showLog']);
    case 'network':
      if (error.phase === 'response') {
        return plain(`The connection to the service broke while its answer was arriving${error.code ? ` (${error.code})` : ''}. Retry; if it keeps happening, check the proxy and the network.`, ['retry', 'showLog']);
      }
      return plain(`Cannot reach the service${error.code ? ` (${error.code})` : ''}. Check the base URL, the proxy and the network.`, ['openSettings', 'retry', 'showLog']);
    case 'validation':
      return plain(`Invalid request: ${error.message}`, error.param === 'model' ? ['pickModel'] : error.param.startsWith('stratus.') ? ['openSettings'] : ['showLog']);
    case 'interrupted':
      return plain(`The answer was cut off: ${interruption(error)} after part of it arrived. Retry to get the whole answer.`, ['retry', 'showLog']);
    case 'outcome_unknown':
      return plain('The request may have reached the service, but the connection broke or no answer came in time, so Stratus cannot tell whether the service acted on it. It was not sent again: check the result before retrying.', ['showLog']);
    case 'usage_cap': {
      const seconds = waitSeconds(error.resetsAt.getTime() - now) ?? 1;
      return {
        message: `${error.window === 'hour' ? 'Hourly' : 'Daily'} cap reached, resets at ${error.resetsAtLabel}: ${error.message}`,
        actions: ['showUsage', 'openSettings'],
        retryAfterSeconds: seconds,
        cancelled: false,
      };
    }
    case 'malformed_response':
      return plain(`The service sent a response Stratus cannot read: ${sentence(error.message)}.`, ['retry', 'showLog']);
  }
}

/** Node's codes for a server certificate that failed verification (the connection never opened). */
const CERTIFICATE_CODES: ReadonlySet<string> = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export const STRICT_SSL_NOTE =
  "Note: http.proxyStrictSSL is off, but VS Code's network stack still verifies certificates for Stratus. Add your CA to the OS certificate store, or set NODE_EXTRA_CA_CERTS and turn http.systemCertificates off.";

/**
 * The note said once per session with the first certificate failure while http.proxyStrictSSL is
 * off: VS Code's fetch (which Stratus uses) never reads that setting, so a user who turned it off
 * to get past a private CA would otherwise not know why the error stays.
 */
export class StrictSslNote {
  private said = false;

  /** The note to append to this error's message, or undefined. */
  for(error: unknown, proxyStrictSSL: boolean): string | undefined {
    if (this.said || proxyStrictSSL || !(error instanceof NetworkError) || !CERTIFICATE_CODES.has(error.code ?? '')) return undefined;
    this.said = true;
    return STRICT_SSL_NOTE;
  }
}

/** A server's message without its final period, for a sentence that goes on after it. */
function sentence(text: string): string {
  return text.replace(/\.+$/, '');
}

function seconds(ms: number | undefined): string {
  return ms === undefined || !Number.isFinite(ms) ? 'a while' : `${Math.max(1, Math.round(ms / 1000))} s`;
}

/** Longest wait ever shown: a day (a header cannot ask for more, see http/retryAfter.ts). */
const MAX_SHOWN_WAIT_S = 86_400;

/** Whole seconds to wait, at least 1 and at most a day; undefined when `ms` is not a number. */
function waitSeconds(ms: number): number | undefined {
  if (Number.isNaN(ms)) return undefined;
  return Math.min(MAX_SHOWN_WAIT_S, Math.max(1, Math.ceil(ms / 1000)));
}

/** What broke an answer midway, in words; the reason is typed, the code comes from the cause. */
function interruption(error: InterruptedError): string {
  switch (error.reason) {
    case 'reset': {
      const code = error.cause instanceof NetworkError || error.cause instanceof OutcomeUnknownError ? error.cause.code : undefined;
      return `the connection was reset${code ? ` (${code})` : ''}`;
    }
    case 'stalled':
      return 'it stopped arriving (the stream went silent)';
    case 'ended':
      return 'the service ended the stream before the answer was complete';
  }
}
