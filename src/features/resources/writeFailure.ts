// Pure (no `vscode` import): which next steps a failed write offers, unit-tested in plain Node.
import { isStratusError } from '../../core/errors';
import type { ErrorAction } from '../../core/presentError';

export type WriteFailureAction = 'openActivities' | 'retry' | 'signIn' | 'showLog';

/**
 * The buttons of a write that failed before an activity id came back. A write whose connection
 * broke after sending (`outcome_unknown`) may have been applied: it offers the Activities view,
 * never Retry. Retry is offered only when the server refused the write or it provably never left.
 */
export function writeFailureActions(error: unknown, presented: readonly ErrorAction[]): WriteFailureAction[] {
  if (isStratusError(error) && error.kind === 'outcome_unknown') return ['openActivities', 'showLog'];
  const actions: WriteFailureAction[] = [];
  if (presented.includes('retry') && provablyNotApplied(error)) actions.push('retry');
  if (presented.includes('signIn')) actions.push('signIn');
  actions.push('showLog');
  return actions;
}

/** The server refused the write, or it never left: sending it again (on request) cannot apply it twice. */
export function provablyNotApplied(error: unknown): boolean {
  if (!isStratusError(error)) return false;
  switch (error.kind) {
    case 'api':
    case 'rate_limit':
    case 'network':
      return true;
    case 'timeout':
      return error.phase === 'connect';
    default:
      return false;
  }
}
