import { FrontMatterReader, parseCustomizationFrontMatter, type CustomizationProblem } from './frontMatter';

/**
 * A custom agent (`.github/agents/<name>.agent.md`, or the older
 * `.github/chatmodes/<name>.chatmode.md`): a description, the subset of tools it may use, a model,
 * its instructions (the body) and handoffs, buttons that pass the conversation to another agent
 * with a prompt.
 */
export interface Handoff {
  /** The button's text. */
  readonly label: string;
  /** The agent it hands over to. */
  readonly agent: string;
  /** The prompt the next agent starts with ('' for none). */
  readonly prompt: string;
  /** Send the prompt at once; false (default): put it in the chat input for the user to edit. */
  readonly send: boolean;
}

export interface AgentFile {
  readonly name: string;
  readonly description: string | undefined;
  /** The tools it may use; undefined: all (no `tools` key); [] when `tools` cannot be read (fails closed). */
  readonly tools: readonly string[] | undefined;
  readonly model: string | undefined;
  readonly handoffs: readonly Handoff[];
  readonly instructions: string;
  readonly bodyLine: number;
  readonly problems: readonly CustomizationProblem[];
}

export const AGENT_SUFFIXES = ['.agent.md', '.chatmode.md'] as const;
export const AGENT_KEYS = ['description', 'name', 'tools', 'model', 'handoffs', 'argument-hint', 'target'] as const;

/** The agent name of a file name (`reviewer.agent.md` -> `reviewer`), or undefined. */
export function agentNameOf(fileName: string): string | undefined {
  const lower = fileName.toLowerCase();
  const suffix = AGENT_SUFFIXES.find((s) => lower.endsWith(s));
  return suffix && fileName.length > suffix.length ? fileName.slice(0, -suffix.length) : undefined;
}

function handoffsOf(read: FrontMatterReader): Handoff[] {
  const entry = read.parsed.entries.get('handoffs');
  if (!entry) return [];
  if (typeof entry.value === 'string') {
    if (entry.value.trim() !== '') read.add({ kind: 'expectedList', key: 'handoffs', line: entry.line, severity: 'error' });
    return [];
  }
  const out: Handoff[] = [];
  entry.value.forEach((item, index) => {
    if (typeof item === 'string') {
      read.add({ kind: 'handoffMissing', index: index + 1, key: 'label', line: entry.line, severity: 'error' });
      return;
    }
    const label = item.label?.trim();
    const agent = item.agent?.trim();
    if (!label || !agent) {
      read.add({ kind: 'handoffMissing', index: index + 1, key: label ? 'agent' : 'label', line: entry.line, severity: 'error' });
      return;
    }
    const send = item.send?.trim().toLowerCase();
    if (send !== undefined && send !== 'true' && send !== 'false') read.add({ kind: 'expectedBoolean', key: 'handoffs.send', line: entry.line, severity: 'error' });
    out.push({ label, agent, prompt: item.prompt?.trim() ?? '', send: send === 'true' });
  });
  return out;
}

export function parseAgentFile(text: string, fileName: string): AgentFile {
  const parsed = parseCustomizationFrontMatter(text);
  const read = new FrontMatterReader(parsed, AGENT_KEYS);
  return {
    name: read.text('name', 200) ?? agentNameOf(fileName) ?? fileName,
    description: read.text('description', 1024),
    tools: read.list('tools'),
    model: read.text('model', 200),
    handoffs: handoffsOf(read),
    instructions: parsed.body.trim(),
    bodyLine: parsed.bodyLine,
    problems: read.problems,
  };
}
