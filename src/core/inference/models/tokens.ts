import type { ChatMessage, ToolDefinition } from '../chat/types';

/**
 * A deliberately simple, tokenizer-free estimate, biased high so a fitted prompt stays under the
 * real limit: one token per 3 characters (English averages ~4; code and other languages run
 * denser), 4 tokens of framing per message, and a flat 768 tokens per image.
 */
export const CHARS_PER_TOKEN = 3;
export const MESSAGE_OVERHEAD_TOKENS = 4;
export const IMAGE_TOKENS = 768;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateMessageTokens(message: ChatMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS;
  const content = message.content;
  if (typeof content === 'string') tokens += estimateTextTokens(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      tokens += part.type === 'text' ? estimateTextTokens(part.text) : IMAGE_TOKENS;
    }
  }
  if (message.role === 'assistant') {
    // The reasoning kept between tool rounds (gpt-oss) is sent as it is: ~61k tokens of it were
    // counted as nothing by fitting, compaction and the cost cap's ceiling (issue 40).
    if (typeof message.reasoning_content === 'string') tokens += estimateTextTokens(message.reasoning_content);
    for (const call of message.tool_calls ?? []) {
      tokens += MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(call.function.name + call.function.arguments);
    }
  }
  return tokens;
}

export function estimateToolsTokens(tools: readonly ToolDefinition[] | undefined): number {
  return tools && tools.length > 0 ? estimateTextTokens(JSON.stringify(tools)) : 0;
}
