/** Names of Stratus' language-model tools (as in package.json `contributes.languageModelTools`). */
export const ToolNames = {
  readFile: 'stratus_readFile',
  listFiles: 'stratus_listFiles',
  searchWorkspace: 'stratus_searchWorkspace',
  getDiagnostics: 'stratus_getDiagnostics',
  getActiveEditor: 'stratus_getActiveEditor',
  runCommand: 'stratus_runCommand',
  runTask: 'stratus_runTask',
  proposeEdit: 'stratus_proposeEdit',
  listResources: 'stratus_listResources',
  describeResource: 'stratus_describeResource',
  cloudAction: 'stratus_cloudAction',
  createFile: 'stratus_createFile',
  runInTerminal: 'stratus_runInTerminal',
  /** Registered by the documents feature (src/features/documents/tool.ts). */
  readDocument: 'stratus_readDocument',
} as const;

export const STRATUS_TOOL_PREFIX = 'stratus_';

/** Tools that change something: each asks for confirmation in prepareInvocation. */
export const SIDE_EFFECT_TOOLS: ReadonlySet<string> = new Set([ToolNames.runCommand, ToolNames.runTask, ToolNames.proposeEdit, ToolNames.cloudAction, ToolNames.createFile, ToolNames.runInTerminal]);

export const CLOUD_TOOLS: ReadonlySet<string> = new Set([ToolNames.listResources, ToolNames.describeResource, ToolNames.cloudAction]);

/** Tools whose `path` input names a file the answer should reference. */
export const FILE_TOOLS: ReadonlySet<string> = new Set([ToolNames.readFile, ToolNames.proposeEdit, ToolNames.createFile]);
