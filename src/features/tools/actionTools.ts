/** Workspace tools with side effects: each asks for confirmation naming exactly what will happen. One file per tool. */
export { commandAllowlist, RunCommandTool } from './runCommandTool';
export { ProposeEditTool, MAX_INLINE_EDIT_CHARS } from './proposeEditTool';
export { RunTaskTool } from './runTaskTool';
export { EditPreviews } from './editPreviews';
