/**
 * The `tools` of a prompt file or custom agent as Stratus tool names. A name is taken as written
 * when it is a tool (`stratus_readFile`, or another extension's tool), else through this table of
 * the names other agents' files use (documented in the README); `tool/part` (a tool set's member,
 * `search/codebase`) tries the whole name, then its first part. Case does not matter for aliases.
 */
export const TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  read: ['stratus_readFile', 'stratus_readDocument', 'stratus_readSkill', 'stratus_getActiveEditor'],
  readfile: ['stratus_readFile'],
  search: ['stratus_searchWorkspace', 'stratus_listFiles'],
  codebase: ['stratus_searchWorkspace', 'stratus_listFiles'],
  findfiles: ['stratus_listFiles'],
  edit: ['stratus_proposeEdit', 'stratus_createFile'],
  editfiles: ['stratus_proposeEdit', 'stratus_createFile'],
  terminal: ['stratus_runInTerminal'],
  runinterminal: ['stratus_runInTerminal'],
  runcommands: ['stratus_runInTerminal'],
  execute: ['stratus_runInTerminal'],
  commands: ['stratus_runCommand'],
  tasks: ['stratus_runTask'],
  runtasks: ['stratus_runTask'],
  problems: ['stratus_getDiagnostics'],
  diagnostics: ['stratus_getDiagnostics'],
  cloud: ['stratus_listResources', 'stratus_describeResource', 'stratus_cloudAction'],
  cloudread: ['stratus_listResources', 'stratus_describeResource'],
  todo: ['stratus_todo'],
  todos: ['stratus_todo'],
  skills: ['stratus_readSkill'],
};

/** The tools a list allows, and the names neither a known tool nor an alias. */
export function resolveToolNames(names: readonly string[], known: readonly string[]): { allowed: Set<string>; unknown: string[] } {
  const allowed = new Set<string>();
  const unknown: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === '') continue;
    const candidates = name.includes('/') ? [name, name.split('/')[0] ?? ''] : [name];
    const hit = candidates.find((c) => known.includes(c) || TOOL_ALIASES[c.toLowerCase()] !== undefined);
    if (hit === undefined) {
      unknown.push(name);
    } else if (known.includes(hit)) {
      allowed.add(hit);
    } else {
      for (const tool of TOOL_ALIASES[hit.toLowerCase()] ?? []) allowed.add(tool);
    }
  }
  return { allowed, unknown };
}
