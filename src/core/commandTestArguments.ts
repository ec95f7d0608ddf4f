// Pure (no `vscode` import) so the decision is unit-tested in plain Node.
import { isRecord } from './json';

/** Options of one write that skip a person's step. Set by the host tests and by an in-process retry. */
export interface WriteOptions {
  /** Skip the input flow: the action's field values. */
  input?: Record<string, unknown>;
  /** Skip the modal confirmation. */
  confirmed?: boolean;
  /** Overall deadline of following the activity, instead of the setting's minutes (host tests). */
  followTimeoutMs?: number;
}

/**
 * Any extension, and any `command:` link in rendered Markdown (a chat answer, a hover), can run a
 * command with arguments. Arguments that skip a person's step (the confirmation modal, the input
 * flow, a credential prompt) are therefore honoured only when the extension runs in
 * `ExtensionMode.Test`; in any other mode the person always sees the step.
 */
export function acceptsTestArguments(testMode: boolean): boolean {
  return testMode;
}

/** Whether a command argument may skip the confirmation modal of a write. */
export function maySkipConfirmation(arg: unknown, testMode: boolean): boolean {
  return acceptsTestArguments(testMode) && isRecord(arg) && arg.confirmed === true;
}

/** The write options a command argument may carry: none outside test mode, and only well-formed ones in it. */
export function writeOptionsFrom(arg: unknown, testMode: boolean): WriteOptions {
  if (!acceptsTestArguments(testMode) || !isRecord(arg)) return {};
  const options: WriteOptions = {};
  if (isRecord(arg.input)) options.input = { ...arg.input };
  if (maySkipConfirmation(arg, testMode)) options.confirmed = true;
  if (typeof arg.followTimeoutMs === 'number' && Number.isFinite(arg.followTimeoutMs) && arg.followTimeoutMs > 0) options.followTimeoutMs = arg.followTimeoutMs;
  return options;
}

/** A credential passed as a command argument (tests only); undefined means "ask the person". */
export function credentialArgument<T>(arg: unknown, testMode: boolean, accept: (value: unknown) => value is T): T | undefined {
  return acceptsTestArguments(testMode) && accept(arg) ? arg : undefined;
}
