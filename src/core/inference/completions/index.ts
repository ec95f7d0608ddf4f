export { complete, completeStream, toChatRequest, COMPLETIONS_PATH } from './completions';
export type { CompletionRequest } from './types';
