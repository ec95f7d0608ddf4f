/**
 * Workspace Trust, decided in one place: "may this run, read or write here?". Every tool and
 * feature asks the gate (src/services/workspaceTrust.ts), which answers from this table, so
 * Restricted Mode means the same thing everywhere and a change to it lands once.
 *
 * In Restricted Mode (an untrusted workspace, e.g. a repository just cloned), anything the
 * workspace holds may be written by an attacker: a test script, a task, a commit subject, an
 * AGENTS.md that steers the model. So there:
 *  - `run` (a terminal command, a task, a VS Code command) and `write` (a file, a cloud resource)
 *    are confirmed by the person every time, never auto-approved, and the confirmation says why;
 *  - `send` (workspace content the person asked to send, e.g. a diff for a commit message) is
 *    confirmed once per request;
 *  - `context` (workspace content gathered without being asked: repository instructions, other
 *    files as completion context) is left out.
 * In a trusted workspace everything is allowed (each tool still asks where it always does).
 */

export type TrustAction = 'run' | 'write' | 'send' | 'context';

export const TRUST_ACTIONS: readonly TrustAction[] = ['run', 'write', 'send', 'context'];

export type TrustVerdict =
  | { readonly kind: 'allow' }
  /** The person confirms this very action, with the Restricted Mode line; nothing auto-approves it. */
  | { readonly kind: 'confirm'; readonly reason: string }
  /** Left out silently (context the person did not ask for). */
  | { readonly kind: 'skip'; readonly reason: string };

const RESTRICTED = 'the workspace is in Restricted Mode (not trusted)';

export function decideTrust(action: TrustAction, trusted: boolean): TrustVerdict {
  if (trusted) return { kind: 'allow' };
  switch (action) {
    case 'run':
      return { kind: 'confirm', reason: `${RESTRICTED}: every command, task and program asks` };
    case 'write':
      return { kind: 'confirm', reason: `${RESTRICTED}: every change asks` };
    case 'send':
      return { kind: 'confirm', reason: `${RESTRICTED}: its content is sent only when confirmed` };
    case 'context':
      return { kind: 'skip', reason: `${RESTRICTED}: repository instructions and other files are not read as context` };
  }
}
