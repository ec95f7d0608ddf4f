import { FrontMatterReader, parseCustomizationFrontMatter, type CustomizationProblem } from './frontMatter';
import { unknownVariables } from './variables';

/**
 * A prompt file (`.github/prompts/<name>.prompt.md`, or one of the user's own): a reusable
 * request with its front matter (`description`, `agent` or the older `mode`, `model`, `tools`)
 * and a body that may hold variables (`${input:name}`, `${selection}`, `${file}`...) and Markdown
 * links to files attached as context.
 */
export interface PromptFile {
  /** The file name without `.prompt.md` (what `/prompt <name>` takes). */
  readonly name: string;
  readonly description: string | undefined;
  /** `agent` (or `mode`): `ask`, `edit`, `agent`, or a custom agent's name. */
  readonly agent: string | undefined;
  readonly model: string | undefined;
  /** The tools it may use; undefined: those of its agent (all by default); [] when `tools` cannot be read. */
  readonly tools: readonly string[] | undefined;
  readonly argumentHint: string | undefined;
  readonly body: string;
  readonly bodyLine: number;
  readonly problems: readonly CustomizationProblem[];
}

export const PROMPT_FILE_SUFFIX = '.prompt.md';
export const PROMPT_KEYS = ['description', 'name', 'agent', 'mode', 'model', 'tools', 'argument-hint'] as const;

/** The prompt name of a file name (`review-api.prompt.md` -> `review-api`), or undefined when it is not a prompt file. */
export function promptNameOf(fileName: string): string | undefined {
  if (!fileName.toLowerCase().endsWith(PROMPT_FILE_SUFFIX) || fileName.length === PROMPT_FILE_SUFFIX.length) return undefined;
  return fileName.slice(0, -PROMPT_FILE_SUFFIX.length);
}

export function parsePromptFile(text: string, fileName: string): PromptFile {
  const parsed = parseCustomizationFrontMatter(text);
  const read = new FrontMatterReader(parsed, PROMPT_KEYS);
  const fields = {
    name: read.text('name', 200) ?? promptNameOf(fileName) ?? fileName,
    description: read.text('description', 1024),
    agent: read.text('agent', 200) ?? read.text('mode', 200),
    model: read.text('model', 200),
    tools: read.list('tools'),
    argumentHint: read.text('argument-hint', 500),
  };
  const problems = read.problems;
  const body = parsed.body;
  for (const v of unknownVariables(body)) problems.push({ kind: 'unknownVariable', name: v.name, line: parsed.bodyLine + v.line, severity: 'warning' });
  return {
    ...fields,
    body,
    bodyLine: parsed.bodyLine,
    problems,
  };
}
