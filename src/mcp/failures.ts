import { ActivityFailedError, ActivityStillRunningError } from '../core/console/errors';
import { isStratusError, RateLimitError } from '../core/errors';
import { presentError } from '../core/presentError';

/*
 * Every failure of a tool is one line for the model: what happened and what to do. The typed
 * errors of the core are switched on by kind (never by message); the text is redacted by the
 * caller. Never a stack trace.
 */

/** A failure already phrased for the model. */
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

/** What the failed call was, for the sentence: "Listing virtual machines", and for a write its activity id once known. */
export interface FailureContext {
  readonly what: string;
  readonly activityId?: string | undefined;
  /** The call changes something (an unknown outcome is then the write's). */
  readonly write?: boolean;
  /** The kind's plural, for a 404 of its collection. */
  readonly kindPlural?: string | undefined;
  readonly now?: number;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** A model- or console-given part of a line (an unknown input name, a server's message), cut. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The longest line a failure is: what happened and what to do fit; an echoed argument does not grow it. */
export const MAX_FAILURE_CHARS = 800;

function stop(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The one line of a failure, at most MAX_FAILURE_CHARS long. */
export function failureText(error: unknown, context: FailureContext): string {
  return cut(failureLine(error, context), MAX_FAILURE_CHARS - 1);
}

function failureLine(error: unknown, context: FailureContext): string {
  if (error instanceof ToolRefusal) return oneLine(error.message);
  const activity = context.activityId ? ` The write was accepted as activity ${context.activityId}` : '';
  if (error instanceof ActivityFailedError) {
    return oneLine(`${context.what} failed on the server: activity ${error.activity.id} ended in "failed"${error.reason ? ` (${stop(error.reason)})` : '.'} Read the reason, fix the input or the resource, then try again.`);
  }
  if (error instanceof ActivityStillRunningError) {
    return oneLine(`${context.what}: activity ${error.activityId} is still running on the server; following stopped after ${Math.round(error.timeoutMs / 60_000) || 1} min. Call get_activity with id ${error.activityId} later; do not repeat the write.`);
  }
  if (!isStratusError(error)) {
    return oneLine(`${context.what} failed unexpectedly (${error instanceof Error ? error.name : typeof error}).${activity ? `${activity}; check it with get_activity before retrying.` : ' Retry once; if it fails again, report it.'}`);
  }
  switch (error.kind) {
    case 'auth':
      return error.reason === 'missing'
        ? `${context.what} failed: no personal access token is set. Set STRATUS_PAT_ID and STRATUS_PAT_SECRET in the server's environment (in VS Code: Stratus: Sign In to Console) and restart the server.`
        : `${context.what} failed: the console rejected the personal access token (${error.status ?? 401}); it may be expired or revoked. Create a new PAT, set it in the server's environment (in VS Code: Stratus: Sign In to Console) and restart the server.`;
    case 'forbidden':
      return oneLine(`${context.what} failed: permission denied (403). The PAT lacks this permission; ask the tenant's administrator, or use a PAT that has it.`);
    case 'not_found':
      return context.kindPlural
        ? `${context.what} failed: the console has no ${context.kindPlural.toLowerCase()} for this tenant (404 on its collection). The tenant may not have this module; call list_resource_kinds and use another kind.`
        : oneLine(`${context.what} failed: not found (404). Check the id with a list tool.`);
    case 'rate_limit': {
      const retryAt = error instanceof RateLimitError ? error.retryAt : undefined;
      const seconds = retryAt ? Math.max(1, Math.ceil((retryAt.getTime() - (context.now ?? Date.now())) / 1000)) : undefined;
      return `${context.what} failed: the console's rate limit was reached (429). ${seconds !== undefined ? `Wait ${seconds} s, then retry.` : 'Wait a few seconds, then retry.'}${context.write ? ' Nothing was changed.' : ''}`;
    }
    case 'outcome_unknown':
      return `${context.what}: the request reached the console but no answer came (the connection broke or timed out), so it is unknown whether the change was made. It was NOT sent again. Call list_activities (or read the resource) to see whether it happened before trying again.`;
    case 'validation':
      // The message and the parameter can repeat the caller's input (unknown names): cut, so the advice stays in the line.
      return oneLine(`${context.what} refused before sending: ${stop(cut(error.message, 300))} Fix the argument "${cut(error.param, 60)}" and call again.`);
    case 'cancelled':
      return `${context.what} was cancelled.${activity ? `${activity}; it goes on on the server (get_activity).` : ''}`;
    default: {
      const presented = presentError(error, context.now);
      return oneLine(`${context.what} failed: ${presented.message}${activity ? `${activity}; check it with get_activity before retrying.` : ''}`);
    }
  }
}
