import * as vscode from 'vscode';
import { DisposableStore } from '../../platform/disposables';
import type { Deps } from '../deps';
import { EditPreviews, ProposeEditTool, RunCommandTool, RunTaskTool } from './actionTools';
import { registerCheckpointActions } from '../../services/turnCheckpointActions';
import { storageAt, TurnCheckpoints, type RecordChange } from '../../services/turnCheckpoints';
import { CreateFileTool } from './createFileTool';
import { CloudActionTool, DescribeResourceTool, ListResourcesTool } from './cloudTools';
import { ActiveEditorTool, DiagnosticsTool, ListFilesTool, ReadFileTool, SearchTool } from './fileTools';
import { SIDE_EFFECT_TRUST_ACTIONS, ToolNames } from '../../core/agent/toolNames';
import { toolsContext } from '../../services/toolsContext';
import { RankedWorkspaceSearch, type RankedSearchSource } from './rankedSearch';
import { ReadSkillTool } from './readSkillTool';
import { RunInTerminalTool } from './runInTerminalTool';
import { TodoTool } from './todoTool';
import { trustGatedTool } from './trustGatedTool';

export interface ToolsFeature {
  readonly disposable: vscode.Disposable;
  /** The registered tools by name, as VS Code calls them (side-effect ones behind the trust gate): for host tests. */
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<never>>;
}

/** Stratus' language-model tools, for @stratus and for any other agent (VS Code's agent mode included). */
export function register(deps: Deps, options: { rankedSearch?: RankedSearchSource; storageUri?: vscode.Uri | undefined } = {}): ToolsFeature {
  const store = new DisposableStore();
  const context = toolsContext(deps);
  const editPreviews = new EditPreviews();
  store.add(editPreviews.register());
  const checkpoints = store.add(new TurnCheckpoints(storageAt(options.storageUri?.scheme === 'file' ? options.storageUri.fsPath : undefined), deps.logger));
  context.checkpoints = checkpoints;
  store.add(registerCheckpointActions(checkpoints));
  const recordChange: RecordChange = (uri, change) => checkpoints.recordChange(uri, change);
  if (options.rankedSearch) context.search = new RankedWorkspaceSearch(options.rankedSearch, context.search);
  const tools: Array<[string, vscode.LanguageModelTool<never>]> = [
    [ToolNames.readFile, new ReadFileTool()],
    [ToolNames.listFiles, new ListFilesTool()],
    [ToolNames.searchWorkspace, new SearchTool(() => context.search)],
    [ToolNames.getDiagnostics, new DiagnosticsTool()],
    [ToolNames.getActiveEditor, new ActiveEditorTool()],
    [ToolNames.runCommand, new RunCommandTool()],
    [ToolNames.runTask, new RunTaskTool()],
    [ToolNames.proposeEdit, new ProposeEditTool(editPreviews, recordChange)],
    [ToolNames.createFile, new CreateFileTool(recordChange, editPreviews)],
    [ToolNames.runInTerminal, new RunInTerminalTool(deps.trust)],
    [ToolNames.listResources, new ListResourcesTool(deps.console)],
    [ToolNames.describeResource, new DescribeResourceTool(deps.console)],
    [ToolNames.cloudAction, new CloudActionTool(deps.console, context.progress)],
    [ToolNames.readSkill, new ReadSkillTool(deps.instructions.customizations)],
    [ToolNames.todo, new TodoTool()],
  ];
  const registered = new Map<string, vscode.LanguageModelTool<never>>();
  for (const [name, tool] of tools) {
    const action = SIDE_EFFECT_TRUST_ACTIONS[name];
    const trusted = action === undefined ? tool : trustGatedTool(name, tool, deps.trust, action);
    // Outermost: a call read from the model's text always asks, whatever the tool would do.
    const gated = deps.textCalls ? deps.textCalls.guard(name, trusted) : trusted;
    registered.set(name, gated);
    store.add(vscode.lm.registerTool(name, gated));
  }
  return { disposable: store, tools: registered };
}
