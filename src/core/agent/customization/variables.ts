/**
 * The variables of a prompt file's body: `${input:name}` and `${input:name:placeholder}` (asked of
 * the user, or given on the chat line as `name=value`), `${selection}` / `${selectedText}`,
 * `${file}`, `${fileBasename}`, `${fileDirname}`, `${workspaceFolder}`,
 * `${workspaceFolderBasename}`. An unknown `${...}` is left as written (and reported in the file).
 */

const VARIABLE = /\$\{([A-Za-z]+)(?::([A-Za-z0-9_-]+)(?::([^}]*))?)?\}/g;

export const CONTEXT_VARIABLES = ['selection', 'selectedText', 'file', 'fileBasename', 'fileDirname', 'workspaceFolder', 'workspaceFolderBasename'] as const;
export type ContextVariable = (typeof CONTEXT_VARIABLES)[number];

export interface PromptInput {
  readonly name: string;
  /** The placeholder written after the name (`${input:name:placeholder}`), if any. */
  readonly placeholder: string | undefined;
}

/** The inputs a body asks for, each once, in order. */
export function promptInputs(body: string): PromptInput[] {
  const seen = new Map<string, PromptInput>();
  for (const m of body.matchAll(VARIABLE)) {
    if (m[1] !== 'input' || !m[2]) continue;
    const existing = seen.get(m[2]);
    if (!existing || (existing.placeholder === undefined && m[3])) seen.set(m[2], { name: m[2], placeholder: m[3] || undefined });
  }
  return [...seen.values()];
}

/** `${...}` that are neither inputs nor known context variables, with their line in the body. */
export function unknownVariables(body: string): Array<{ name: string; line: number }> {
  const out: Array<{ name: string; line: number }> = [];
  // Newlines are counted from the previous match on: one pass over the body, however many matches.
  let line = 0;
  let counted = 0;
  for (const m of body.matchAll(/\$\{([^}\n]*)\}/g)) {
    for (let at = body.indexOf('\n', counted); at !== -1 && at < m.index; at = body.indexOf('\n', at + 1)) line++;
    counted = m.index;
    const name = m[1] ?? '';
    const known = /^input:[A-Za-z0-9_-]+(?::[^}]*)?$/.test(name) || (CONTEXT_VARIABLES as readonly string[]).includes(name);
    if (!known) out.push({ name, line });
  }
  return out;
}

/**
 * Values given on the chat line for declared inputs: leading `name=value`, `name="two words"` or
 * `name='two words'`; what follows the last one is the rest of the user's text.
 */
export function inputArguments(text: string, declared: readonly string[]): { values: Map<string, string>; rest: string } {
  const values = new Map<string, string>();
  let rest = text.trim();
  for (;;) {
    const m = /^([A-Za-z0-9_-]+)=(?:"([^"]*)"|'([^']*)'|(\S+))(?:\s+|$)/.exec(rest);
    if (!m || !declared.includes(m[1] ?? '')) break;
    values.set(m[1] ?? '', m[2] ?? m[3] ?? m[4] ?? '');
    rest = rest.slice(m[0].length);
  }
  return { values, rest: rest.trim() };
}

export type VariableValues = Partial<Record<ContextVariable, string>> & { readonly inputs: ReadonlyMap<string, string> };

/** The body with its variables replaced; inputs and context variables without a value become '' and are listed. */
export function resolveVariables(body: string, values: VariableValues): { text: string; empty: string[] } {
  const empty = new Set<string>();
  const text = body.replace(VARIABLE, (whole, name: string, input: string | undefined) => {
    if (name === 'input' && input) {
      const value = values.inputs.get(input);
      if (value === undefined || value === '') empty.add(`input:${input}`);
      return value ?? '';
    }
    if (input !== undefined || !(CONTEXT_VARIABLES as readonly string[]).includes(name)) return whole;
    const key = (name === 'selectedText' ? 'selection' : name) as ContextVariable;
    const value = values[key];
    if (value === undefined || value === '') empty.add(name);
    return value ?? '';
  });
  return { text, empty: [...empty] };
}
