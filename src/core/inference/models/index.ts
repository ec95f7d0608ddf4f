export { listModels, MODELS_PATH } from './models';
export { ModelCatalog, type ModelCatalogOptions } from './catalog';
export { inferModelKind, isModelKind } from './kind';
export { fitConversation, type FitOptions, type FitResult } from './fit';
export {
  estimateMessageTokens,
  estimateTextTokens,
  estimateToolsTokens,
  CHARS_PER_TOKEN,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
} from './tokens';
export type { ModelInfo, ModelKind, ModelKindOverrides } from './types';
export { parseToolCallingOverrides, supportsToolCalling, type ToolCallingOverrides } from './capabilities';
