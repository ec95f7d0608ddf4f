import type { InferenceClient } from '../inference/api';
import { cleanCommitMessage } from './cleanup';
import type { CommitPrompt } from './prompt';

export interface WrittenMessage {
  /** The cleaned message (what the input box holds at the end). */
  message: string;
  /** `stop`, or `length` when the answer was cut at `max_tokens`. */
  finishReason: string | undefined;
}

/**
 * Streams the commit message for `prompt` from `model`, metered as kind `commit` (and so through
 * the tier's cap check first). `onText` gets the cleaned message so far each time it changes.
 */
export async function writeCommitMessage(
  client: InferenceClient,
  model: string,
  prompt: CommitPrompt,
  onText: (message: string) => void,
  signal?: AbortSignal,
): Promise<WrittenMessage> {
  let raw = '';
  let shown = '';
  const result = await client
    .chatStream({ model, messages: prompt.messages, max_tokens: prompt.maxTokens, temperature: 0.2 }, { signal, purpose: 'commit' })
    .consume((event) => {
      if (event.type !== 'text') return;
      raw += event.text;
      const now = cleanCommitMessage(raw, true);
      if (now !== shown) {
        shown = now;
        onText(now);
      }
    });
  const message = cleanCommitMessage(result.text === '' ? raw : result.text);
  if (message !== shown) onText(message);
  return { message, finishReason: result.finishReason };
}
