import * as vscode from 'vscode';
import type { ChatMessage, ContentPart, ToolCall, ToolDefinition, ToolChoice } from '../../core/inference/chat/types';

/** VS Code 1.139 also sends role 3 (system), which the 1.104 typings do not name. */
const SYSTEM_ROLE = 3;

/** Binary parts (images) arrive as `LanguageModelDataPart`, newer than our minimum typings. */
interface DataPartLike { mimeType: string; data: Uint8Array }
function isDataPart(part: unknown): part is DataPartLike {
  return typeof part === 'object' && part !== null
    && typeof (part as { mimeType?: unknown }).mimeType === 'string'
    && (part as { data?: unknown }).data instanceof Uint8Array;
}

export function dataUri(mimeType: string, data: Uint8Array): string {
  return `data:${mimeType};base64,${Buffer.from(data).toString('base64')}`;
}

function toolResultText(part: vscode.LanguageModelToolResultPart): string {
  return part.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : typeof c === 'string' ? c : JSON.stringify(c))).join('');
}

/**
 * Converts the messages VS Code hands a language-model provider into the wire format: text and
 * images become content parts, tool calls become `tool_calls` on the assistant message, and each
 * tool result becomes its own `tool` message.
 */
export function toApiMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const texts: string[] = [];
    const images: ContentPart[] = [];
    const toolCalls: ToolCall[] = [];
    const toolResults: ChatMessage[] = [];
    for (const part of message.content) {
      if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
      else if (part instanceof vscode.LanguageModelToolCallPart) {
        toolCalls.push({ id: part.callId, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } });
      } else if (part instanceof vscode.LanguageModelToolResultPart) {
        toolResults.push({ role: 'tool', tool_call_id: part.callId, content: toolResultText(part) });
      } else if (isDataPart(part) && part.mimeType.startsWith('image/')) {
        images.push({ type: 'image_url', image_url: { url: dataUri(part.mimeType, part.data) } });
      }
    }
    const text = texts.join('');
    const role = message.role as number;
    if (role === SYSTEM_ROLE) out.push({ role: 'system', content: text });
    else if (role === vscode.LanguageModelChatMessageRole.Assistant) {
      out.push(toolCalls.length > 0 ? { role: 'assistant', content: text || null, tool_calls: toolCalls } : { role: 'assistant', content: text });
    } else {
      // Tool results travel in user messages in VS Code; on the wire they follow the assistant's call.
      out.push(...toolResults);
      if (images.length > 0) out.push({ role: 'user', content: [...(text ? [{ type: 'text' as const, text }] : []), ...images] });
      else if (text || toolResults.length === 0) out.push({ role: 'user', content: text });
    }
  }
  return out;
}

export function toApiTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): ToolDefinition[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, ...(tool.inputSchema ? { parameters: tool.inputSchema as Record<string, unknown> } : {}) },
  }));
}

/** `Required` with one tool forces it; with several the contract has no "any tool" form, so auto. */
export function toApiToolChoice(mode: vscode.LanguageModelChatToolMode, tools: readonly ToolDefinition[] | undefined): ToolChoice | undefined {
  if (!tools) return undefined;
  const only = tools.length === 1 ? tools[0] : undefined;
  if (mode === vscode.LanguageModelChatToolMode.Required && only) return { type: 'function', function: { name: only.function.name } };
  return 'auto';
}
