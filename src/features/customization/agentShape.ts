import * as vscode from 'vscode';
import { resolveToolNames, type AgentFile, type Handoff } from '../../core/agent/customization';
import { escapeMarkdown } from '../../core/markdown';
import type { TurnShape } from '../../platform/chatCommands';
import type { Located } from '../../services/customizations';
import { READ_ONLY_TOOLS, ToolNames } from '../../core/agent/toolNames';

/** Result metadata key of the custom agent chosen for the conversation (a name, or null: back to the default). */
export const AGENT_METADATA_KEY = 'customAgent';
export const DEFAULT_AGENT = 'default';

/** Which tools a `tools` list allows (names and aliases, see toolAliases.ts); undefined: no list, all. */
export function toolsFilter(list: readonly string[] | undefined): ((name: string) => boolean) | undefined {
  if (!list) return undefined;
  const { allowed } = resolveToolNames(list, vscode.lm.tools.map((t) => t.name));
  return (name) => allowed.has(name);
}

/** The tools of a prompt file's built-in mode: `ask` and `plan` read only, `edit` also proposes edits; `agent`: all. */
export function modeFilter(mode: string | undefined): ((name: string) => boolean) | undefined {
  switch (mode?.toLowerCase()) {
    case 'ask':
    case 'plan':
      return (name) => READ_ONLY_TOOLS[name] !== undefined;
    case 'edit':
      return (name) => READ_ONLY_TOOLS[name] !== undefined || name === ToolNames.proposeEdit || name === ToolNames.createFile;
    default:
      return undefined;
  }
}

/** Both filters (absent ones allow everything). */
export function bothFilters(a: ((name: string) => boolean) | undefined, b: ((name: string) => boolean) | undefined): ((name: string) => boolean) | undefined {
  if (!a) return b;
  if (!b) return a;
  return (name) => a(name) && b(name);
}

export function isBuiltInMode(name: string | undefined): boolean {
  return ['ask', 'edit', 'agent', 'plan'].includes(name?.toLowerCase() ?? '');
}

/**
 * The name a command line starts with: the longest of `names` (case-insensitive, ending at a space
 * or the end of the line), so a name with spaces (`Code Reviewer`) is found whole; else its first word.
 */
export function leadingName(text: string, names: readonly string[]): string {
  const lower = text.toLowerCase();
  let longest = 0;
  for (const name of names) {
    const candidate = name.toLowerCase();
    const next = lower.charAt(candidate.length);
    if (candidate.length > longest && lower.startsWith(candidate) && (next === '' || /\s/.test(next))) longest = candidate.length;
  }
  return longest > 0 ? text.slice(0, longest) : (text.split(/\s+/)[0] ?? '');
}

/**
 * The chat query that hands the conversation to `agent` with `prompt`: VS Code's built-in agents
 * (`agent`, `ask`, `edit`) are the default @stratus agent, `plan` is `/plan`; any other name is a custom agent.
 */
export function handoffQuery(handoff: Pick<Handoff, 'agent' | 'prompt'>): string {
  const prompt = handoff.prompt ? ` ${handoff.prompt}` : '';
  switch (handoff.agent.trim().toLowerCase()) {
    case 'plan':
      return `@stratus /plan${prompt}`;
    case 'agent':
    case 'ask':
    case 'edit':
      return `@stratus /agent ${DEFAULT_AGENT}${prompt}`;
    default:
      return `@stratus /agent ${handoff.agent.trim()}${prompt}`;
  }
}

/** The handoffs' buttons: each opens the chat with its query (handoffQuery; sent at once with `send: true`). */
export function handoffButtons(stream: vscode.ChatResponseStream, handoffs: readonly Handoff[]): void {
  for (const handoff of handoffs) {
    stream.button({ command: 'workbench.action.chat.open', title: handoff.label, arguments: [{ query: handoffQuery(handoff), isPartialQuery: !handoff.send }] });
  }
}

/** The line at the top of an answer that says which agent answers. */
export function agentHeader(stream: vscode.ChatResponseStream, name: string): void {
  stream.markdown(`_${vscode.l10n.t('Agent: {0}', `**${escapeMarkdown(name)}**`)}_\n\n`);
}

/** An agent turn shaped by a custom agent: its instructions, tools, model, and its handoffs after the answer. */
export function agentShape(agent: Located<AgentFile>): TurnShape {
  const { file } = agent;
  const instructions = [`## Custom agent: ${file.name}`, ...(file.description ? [file.description] : []), file.instructions].filter((t) => t.trim() !== '').join('\n\n');
  const allowTool = toolsFilter(file.tools);
  return {
    instructions,
    ...(allowTool ? { allowTool } : {}),
    ...(file.model ? { model: file.model } : {}),
    metadata: { [AGENT_METADATA_KEY]: file.name },
    ...(file.handoffs.length > 0 ? { finish: (_answer: string, stream: vscode.ChatResponseStream) => handoffButtons(stream, file.handoffs) } : {}),
  };
}
