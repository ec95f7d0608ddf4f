import { ToolNames } from '../../core/agent/toolNames';

/** Command ids, the view type and the file types of the documents feature. */
export const DocumentCommands = {
  extract: 'stratus.documents.extract',
  extractBatch: 'stratus.documents.extractBatch',
  openMarkdown: 'stratus.documents.openMarkdown',
  saveMarkdown: 'stratus.documents.saveMarkdown',
} as const;

export const DOCUMENT_VIEW_TYPE = 'stratus.documentView';

export const READ_DOCUMENT_TOOL = ToolNames.readDocument;

/** Extensions the explorer menu and the open dialog offer; the content decides what a file is. */
export const DOCUMENT_EXTENSIONS = ['pdf', 'png', 'jpg', 'jpeg', 'webp', 'tif', 'tiff'] as const;
