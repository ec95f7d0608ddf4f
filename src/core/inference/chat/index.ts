export { chat, chatStream, CHAT_PATH, NON_STREAMED_FIRST_BYTE_MS, type ChatStream, type ChatStreamOptions } from './chat';
export { buildChatBody } from './validate';
export { splitThinking, ThinkSplitter } from './think';
export { parseToolArguments, ToolCallAssembler } from './toolCalls';
export { parseUsage } from './usage';
export type * from './types';
export { ImageBudget, MAX_IMAGE_BYTES, MAX_IMAGES_TOTAL_BYTES, formatBytes } from './images';
