import type { TrustAction } from '../workspace/trust';

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
  todo: 'stratus_todo',
  /** Registered by the documents feature (src/features/documents/tool.ts). */
  readDocument: 'stratus_readDocument',
  readSkill: 'stratus_readSkill',
} as const;

export const STRATUS_TOOL_PREFIX = 'stratus_';

/** Tools that change something: each asks for confirmation in prepareInvocation. */
export const SIDE_EFFECT_TOOLS: ReadonlySet<string> = new Set([ToolNames.runCommand, ToolNames.runTask, ToolNames.proposeEdit, ToolNames.cloudAction, ToolNames.createFile, ToolNames.runInTerminal]);

/** What each side-effect tool does, as the trust gate sees it (its Restricted Mode line and checks). */
export const SIDE_EFFECT_TRUST_ACTIONS: Readonly<Record<string, TrustAction>> = {
  [ToolNames.runCommand]: 'run',
  [ToolNames.runTask]: 'run',
  [ToolNames.runInTerminal]: 'run',
  [ToolNames.proposeEdit]: 'write',
  [ToolNames.createFile]: 'write',
  [ToolNames.cloudAction]: 'write',
};

/**
 * Tools that change nothing, with why each is the same in Restricted Mode (the host test
 * `test/host/restrictedMode.test.ts` requires every contributed tool here or above).
 */
export const READ_ONLY_TOOLS: Readonly<Record<string, string>> = {
  [ToolNames.readFile]: 'reads one file through the confined reader (inside a workspace folder, size-capped); runs nothing',
  [ToolNames.listFiles]: 'lists file names inside the workspace folders',
  [ToolNames.searchWorkspace]: 'searches file contents through the confined reader; runs nothing',
  [ToolNames.getDiagnostics]: 'reports the problems VS Code already shows',
  [ToolNames.getActiveEditor]: 'reports the open editor and its selection',
  [ToolNames.listResources]: 'lists cloud resources (read only, the person\'s own console credentials)',
  [ToolNames.describeResource]: 'describes one cloud resource (read only)',
  [ToolNames.todo]: "keeps the task's to-do list in memory; reads and writes nothing in the workspace",
  [ToolNames.readDocument]: 'converts a workspace document to Markdown through the confined reader; runs nothing',
  [ToolNames.readSkill]: 'reads a skill\'s files through the confined reader, only inside its folder; reads nothing in Restricted Mode',
};

export const CLOUD_TOOLS: ReadonlySet<string> = new Set([ToolNames.listResources, ToolNames.describeResource, ToolNames.cloudAction]);

/** Tools whose `path` input names a file the answer should reference. */
export const FILE_TOOLS: ReadonlySet<string> = new Set([ToolNames.readFile, ToolNames.proposeEdit, ToolNames.createFile]);
