import * as vscode from 'vscode';
import type { AgentFile } from '../../core/agent/customization';
import { escapeMarkdown } from '../../core/markdown';
import type { TurnShape, TurnShaper } from '../../platform/chatCommands';
import type { CustomizationFiles, Located } from '../../services/customizations';
import { AGENT_METADATA_KEY, agentHeader, agentShape, DEFAULT_AGENT, leadingName } from './agentShape';
import { frontMatterNote } from './problems';

export const AGENT_COMMAND = 'agent';
const PARTICIPANT = 'stratus.chat';

type Shaped = TurnShape | { readonly result: vscode.ChatResult } | undefined;

/** The custom agent chosen earlier in this conversation (the newest answer that says), or undefined. */
export function rememberedAgent(context: vscode.ChatContext): string | undefined {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (!(turn instanceof vscode.ChatResponseTurn) || turn.participant !== PARTICIPANT) continue;
    const metadata = turn.result.metadata as Record<string, unknown> | undefined;
    if (!metadata || !(AGENT_METADATA_KEY in metadata)) continue;
    const value = metadata[AGENT_METADATA_KEY];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

export function findAgent(items: readonly Located<AgentFile>[], name: string): Located<AgentFile> | undefined {
  return items.find((a) => a.file.name.toLowerCase() === name.toLowerCase());
}

function untrustedNote(stream: vscode.ChatResponseStream): void {
  stream.markdown(`> _${vscode.l10n.t("This workspace's custom agents, prompt files and skills are not read: it is not trusted.")}_\n\n`);
}

/** `/agent` alone: the agents of the workspace, each with a button that selects it. */
function listAgents(items: readonly Located<AgentFile>[], current: string | undefined, stream: vscode.ChatResponseStream): vscode.ChatResult {
  if (items.length === 0) {
    stream.markdown(vscode.l10n.t('This workspace has no custom agent. Add one as `.github/agents/<name>.agent.md` (description, tools and model in its front matter, instructions below).'));
    return {};
  }
  stream.markdown(`${vscode.l10n.t('Custom agents of this workspace (current: {0}):', current ? `**${escapeMarkdown(current)}**` : vscode.l10n.t('the default agent'))}\n\n`);
  stream.markdown(`${items.map((a) => `- **${escapeMarkdown(a.file.name)}**${a.file.description ? `: ${escapeMarkdown(a.file.description)}` : ''}`).join('\n')}\n\n`);
  for (const agent of items) {
    stream.button({ command: 'workbench.action.chat.open', title: vscode.l10n.t('Use {0}', agent.file.name), arguments: [{ query: `@stratus /agent ${agent.file.name} `, isPartialQuery: true }] });
  }
  stream.markdown(`\n\n${vscode.l10n.t('`/agent {0}` goes back to the default agent.', DEFAULT_AGENT)}`);
  return {};
}

/** `/agent <name> [question]`: selects the agent for the conversation, and answers the question with it. */
async function agentCommand(files: CustomizationFiles, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream): Promise<Shaped> {
  const { items, untrusted } = await files.agents();
  if (untrusted) untrustedNote(stream);
  const text = request.prompt.trim();
  // The longest agent name the line starts with: names may have spaces (`Code Reviewer`).
  const name = leadingName(text, [...items.map((a) => a.file.name), DEFAULT_AGENT]);
  const prompt = text.slice(name.length).trim();
  if (name === '') {
    // Untrusted, with nothing listed: the note above is the answer.
    if (untrusted && items.length === 0) return { result: {} };
    return { result: listAgents(items, rememberedAgent(context), stream) };
  }
  if (name.toLowerCase() === DEFAULT_AGENT) {
    stream.markdown(`${vscode.l10n.t('The default `@stratus` agent answers in this conversation from now on.')}${prompt === '' ? '' : '\n\n'}`);
    const metadata = { [AGENT_METADATA_KEY]: null };
    // `/agent default <question>` (a handoff to a built-in agent) also answers the question.
    return prompt === '' ? { result: { metadata } } : { prompt, metadata };
  }
  const agent = findAgent(items, name);
  if (!agent) {
    const known = items.map((a) => a.file.name).join(', ');
    stream.markdown(known ? vscode.l10n.t('There is no custom agent named {0}. Agents: {1}.', `**${escapeMarkdown(name)}**`, escapeMarkdown(known)) : vscode.l10n.t('There is no custom agent named {0}.', `**${escapeMarkdown(name)}**`));
    return { result: {} };
  }
  agentHeader(stream, agent.file.name);
  stream.reference(agent.uri);
  frontMatterNote(stream, agent.file.problems, 'agent');
  if (prompt === '') {
    stream.markdown(vscode.l10n.t('{0} answers in this conversation from now on.', `**${escapeMarkdown(agent.file.name)}**`));
    return { result: { metadata: { [AGENT_METADATA_KEY]: agent.file.name } } };
  }
  return { ...agentShape(agent), prompt };
}

/** A plain turn in a conversation that chose an agent: that agent answers again. */
async function ambientAgent(files: CustomizationFiles, context: vscode.ChatContext, stream: vscode.ChatResponseStream): Promise<Shaped> {
  const name = rememberedAgent(context);
  if (name === undefined) return undefined;
  const { items, untrusted } = await files.agents();
  if (untrusted) return undefined; // the turn's instructions note says the workspace is not trusted
  const agent = findAgent(items, name);
  if (!agent) {
    stream.markdown(`> _${vscode.l10n.t('The custom agent {0} is no longer in this workspace: the default agent answers.', `**${escapeMarkdown(name)}**`)}_\n\n`);
    return { metadata: { [AGENT_METADATA_KEY]: null } };
  }
  agentHeader(stream, agent.file.name);
  return agentShape(agent);
}

export function agentShapers(files: CustomizationFiles): TurnShaper[] {
  return [
    { command: AGENT_COMMAND, shape: (request, context, stream) => agentCommand(files, request, context, stream) },
    { shape: (_request, context, stream) => ambientAgent(files, context, stream) },
  ];
}
