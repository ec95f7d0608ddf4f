import { MalformedResponseError } from '../errors';
import type { InferenceClient } from '../inference/api';
import type { EditSession, RowEdit } from './editSession';
import type { EditPrompt } from './prompt';

export interface StreamEditOptions {
  readonly client: Pick<InferenceClient, 'chatStream'>;
  readonly model: string;
  readonly prompt: EditPrompt;
  readonly session: EditSession;
  /** Aborts the request at once (Reject All, Esc, Cancel). */
  readonly signal: AbortSignal;
  /** Called synchronously with the row edits of each delta (never with an empty list). */
  readonly onEdits: (edits: RowEdit[]) => void;
}

export interface StreamEditResult {
  /** The answer hit max_tokens: the range's end was kept as it was. */
  readonly truncated: boolean;
}

const EDIT_LABEL = 'Edit with Instruction';

/**
 * Sends the edit request (metered as kind `edit`, through the cap check like chat) and streams
 * its answer into the session. The session is ended here; a cancelled or failed request leaves
 * it streaming for the caller to reject.
 */
export async function streamEdit(options: StreamEditOptions): Promise<StreamEditResult> {
  const { session, onEdits } = options;
  const stream = options.client.chatStream(
    { model: options.model, messages: options.prompt.messages, max_tokens: options.prompt.maxTokens, temperature: 0.1 },
    { signal: options.signal, purpose: 'edit' },
  );
  const result = await stream.consume((event) => {
    if (event.type !== 'text') return;
    const edits = session.push(event.text);
    if (edits.length > 0) onEdits(edits);
  });
  // An echoed "<think>" that never closed moved the rest of the answer out of it: the range would
  // read as deleted. Nothing is applied (the session stays streaming, for the caller to reject).
  if (result.thinkingOpen === true) throw new MalformedResponseError(`${EDIT_LABEL}: the answer opened a <think> block that never closed, so it holds no complete rewrite; nothing was applied`);
  const truncated = result.finishReason === 'length';
  const edits = session.end({ truncated });
  if (edits.length > 0) onEdits(edits);
  return { truncated };
}
