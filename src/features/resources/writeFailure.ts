// Pure (no `vscode` import): which next steps a failed write offers, unit-tested in plain Node.
import { isStratusError } from '../../core/errors';
import { provablyNotApplied } from '../../core/http/writeSafety';
import type { ErrorAction } from '../../core/presentError';

/**
 * `retry`: send it again as it was (only where it provably did not happen). `sendAgain`: ask again
 * with a fresh modal confirmation that says the first attempt may have been applied, then send.
 */
export type WriteFailureAction = 'openActivities' | 'retry' | 'sendAgain' | 'signIn' | 'showLog';

export { provablyNotApplied };

/** The write failure actions the shared error surface runs (Open Activities and Send Again are the write flow's own buttons). */
export function isErrorAction(action: WriteFailureAction): action is WriteFailureAction & ErrorAction {
  return action === 'retry' || action === 'signIn' || action === 'showLog';
}

/**
 * The buttons of a write that failed before an activity id came back. The one write policy
 * (core/http/writeSafety.ts) decides: Retry only where the write provably did not happen (refused
 * before sending, never left, or refused by the server: 400, 401, 403, 404, 409, 422, 429). Any
 * other failure (a reset or timeout after sending, a 5xx, an unreadable answer) leaves the
 * outcome unknown: the Activities view, and sending again only after a new confirmation.
 */
export function writeFailureActions(error: unknown, presented: readonly ErrorAction[]): WriteFailureAction[] {
  if (!provablyNotApplied(error)) return ['openActivities', 'sendAgain', 'showLog'];
  const actions: WriteFailureAction[] = [];
  if (presented.includes('retry')) actions.push('retry');
  if (presented.includes('signIn')) actions.push('signIn');
  actions.push('showLog');
  return actions;
}

/** Why a write's outcome is unknown, in words (for a write that may have been applied). */
export function unknownOutcomeReason(error: unknown): string {
  if (!isStratusError(error)) return 'an unexpected error came after it may have reached the service';
  switch (error.kind) {
    case 'outcome_unknown':
      return 'the connection broke or went silent after it was sent';
    case 'api':
      return `the service answered HTTP ${error.status}, which can come after the change was accepted`;
    case 'timeout':
    case 'stream_stalled':
      return 'no answer came in time after it was sent';
    case 'malformed_response':
      return 'the service answered, but its answer could not be read';
    default:
      return 'it failed after it may have reached the service';
  }
}
