import type { ChatMessage } from '../inference/chat/types';

/**
 * The reasoning a model family needs back between tool rounds (`reasoning_content`, gpt-oss) is
 * kept only within the turn that produced it (issue 40): what a turn leaves for later turns (its
 * outcome, the chat's stored metadata) carries none, or every later turn would send it again.
 */
export function withoutReasoning(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    if (m.role !== 'assistant' || m.reasoning_content === undefined) return m;
    const { reasoning_content: _dropped, ...rest } = m;
    return rest;
  });
}
