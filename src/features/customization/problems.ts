import * as vscode from 'vscode';
import { agentNameOf, parseAgentFile, ParseCache, parsePromptFile, parseSkill, promptNameOf, resolveToolNames, SKILL_FILE, type CustomizationProblem } from '../../core/agent/customization';
import { escapeMarkdown } from '../../core/markdown';
import { DisposableStore } from '../../platform/disposables';
import { MAX_CUSTOMIZATION_BYTES } from '../../services/customizations';

/** One localised sentence per kind of problem a customization file can have. */
export function problemText(p: CustomizationProblem): string {
  switch (p.kind) {
    case 'unclosed':
      return vscode.l10n.t('The front matter starts with --- but has no closing --- line: none of it is read.');
    case 'syntax':
      return vscode.l10n.t('Expected `key: value` here, found: {0}', p.text);
    case 'indented':
      return vscode.l10n.t('This line is indented but belongs to no key above it.');
    case 'unsupported':
      return vscode.l10n.t('This YAML is not read in a front matter (anchors, tags, nested maps): {0}', p.text);
    case 'unclosedQuote':
      return vscode.l10n.t('A quoted value is not closed.');
    case 'duplicate':
      return vscode.l10n.t('"{0}" is given twice; the first one is used.', p.key);
    case 'unknownKey':
      return vscode.l10n.t('"{0}" is not a key Stratus reads here (known: {1}); it is ignored.', p.key, p.known);
    case 'expectedText':
      return vscode.l10n.t('"{0}" must be one text value, not a list.', p.key);
    case 'expectedList':
      return vscode.l10n.t('"{0}" must be a list of names, e.g. ["read", "search"].', p.key);
    case 'expectedBoolean':
      return vscode.l10n.t('"{0}" must be true or false.', p.key);
    case 'missing':
      return vscode.l10n.t('The front matter needs "{0}".', p.key);
    case 'tooLong':
      return vscode.l10n.t('"{0}" is longer than {1} characters; it is cut.', p.key, p.max);
    case 'handoffMissing':
      return vscode.l10n.t('Handoff {0} needs "{1}" (each handoff has a label and an agent, and may have a prompt and send).', p.index, p.key);
    case 'badSkillName':
      return vscode.l10n.t('The skill name "{0}" must be lowercase letters, digits and hyphens (at most 64); this skill is not offered.', p.name);
    case 'nameMismatch':
      return vscode.l10n.t('The skill is named "{0}" but its folder is "{1}"; the name is used.', p.name, p.folder);
    case 'unknownTool':
      return vscode.l10n.t('"{0}" is neither a tool nor one of the names Stratus maps to its tools (read, search, edit, terminal, commands, tasks, problems, cloud, cloudRead, todo, skills); it is left out.', p.tool);
    case 'unknownVariable':
      return vscode.l10n.t('{0} is not a variable Stratus fills in (input:name, selection, selectedText, file, fileBasename, fileDirname, workspaceFolder, workspaceFolderBasename); it is sent as written.', `\${${p.name}}`);
    case 'tooLarge':
      return vscode.l10n.t('This file is larger than {0} KB: Stratus neither reads nor checks it.', p.maxBytes / 1024);
  }
}

/** Problems about `tools` names neither a known tool nor an alias (warnings on the `tools` line). */
export function toolProblems(tools: readonly string[] | undefined, line: number): CustomizationProblem[] {
  if (!tools) return [];
  const { unknown } = resolveToolNames(tools, vscode.lm.tools.map((t) => t.name));
  return unknown.map((tool) => ({ kind: 'unknownTool', tool, line, severity: 'warning' }));
}

function toolsLine(text: string): number {
  const index = text.split(/\r?\n/).findIndex((l) => /^tools\s*:/.test(l));
  return Math.max(0, index);
}

function isSkillFile(path: string): boolean {
  return path.endsWith(`/${SKILL_FILE}`) && /\/skills\/[^/]+\/SKILL\.md$/.test(path);
}

function isCustomization(path: string): boolean {
  const name = path.split('/').pop() ?? '';
  return promptNameOf(name) !== undefined || agentNameOf(name) !== undefined || isSkillFile(path);
}

/** One line in the chat when a prompt file or agent it runs has front-matter errors (the file's diagnostics show them all). */
export function frontMatterNote(stream: vscode.ChatResponseStream, problems: readonly CustomizationProblem[], kind: 'prompt' | 'agent'): void {
  const errors = problems.filter((p) => p.severity === 'error');
  const first = errors[0];
  if (!first) return;
  const line = first.line + 1;
  const text = escapeMarkdown(problemText(first));
  stream.markdown(`> _${kind === 'prompt'
    ? vscode.l10n.t('This prompt file has {0} front-matter error(s) (shown in the file), e.g. line {1}: {2}', errors.length, line, text)
    : vscode.l10n.t('This custom agent has {0} front-matter error(s) (shown in the file), e.g. line {1}: {2}', errors.length, line, text)}_\n\n`);
}

/** A document's parse, kept per version of its text (diagnostics run on every open and save). */
interface DocumentParse {
  readonly problems: readonly CustomizationProblem[];
  readonly tools?: readonly string[] | undefined;
  readonly toolsLine?: number;
}
const documentParses = new ParseCache<DocumentParse | undefined>();

/** The problems of a document, by its name; undefined when it is not a customization file. */
export function problemsOf(document: vscode.TextDocument): CustomizationProblem[] | undefined {
  const text = document.getText();
  // The reader refuses such a file; checking it would only cost time (a parse per open and save).
  if (Buffer.byteLength(text, 'utf8') > MAX_CUSTOMIZATION_BYTES && isCustomization(document.uri.path)) return [{ kind: 'tooLarge', maxBytes: MAX_CUSTOMIZATION_BYTES, line: 0, severity: 'warning' }];
  const parse = documentParses.get(document.uri.toString(), text, (t) => parseDocument(document.uri.path, t));
  // The tools offered can change between two checks of one version: only the parse is kept.
  return parse && [...parse.problems, ...(parse.toolsLine === undefined ? [] : toolProblems(parse.tools, parse.toolsLine))];
}

function parseDocument(path: string, text: string): DocumentParse | undefined {
  const name = path.split('/').pop() ?? '';
  if (promptNameOf(name) !== undefined) {
    const prompt = parsePromptFile(text, name);
    return { problems: prompt.problems, tools: prompt.tools, toolsLine: toolsLine(text) };
  }
  if (agentNameOf(name) !== undefined) {
    const agent = parseAgentFile(text, name);
    return { problems: agent.problems, tools: agent.tools, toolsLine: toolsLine(text) };
  }
  if (isSkillFile(path)) {
    const folder = path.split('/').slice(-2)[0] ?? '';
    return { problems: parseSkill(text, folder).problems };
  }
  return undefined;
}

/**
 * Front-matter problems of prompt files, agents and skills as diagnostics in the file, updated
 * when it is opened, saved or closed (never swallowed: a broken file says why where it is edited).
 */
export function registerProblemDiagnostics(): vscode.Disposable {
  const store = new DisposableStore();
  const collection = store.add(vscode.languages.createDiagnosticCollection('stratus-customization'));
  const update = (document: vscode.TextDocument): void => {
    const problems = problemsOf(document);
    if (problems === undefined) return;
    collection.set(document.uri, problems.map((p) => {
      const line = Math.min(p.line, Math.max(0, document.lineCount - 1));
      const range = document.lineAt(line).range;
      const diagnostic = new vscode.Diagnostic(range, problemText(p), p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
      diagnostic.source = 'Stratus';
      return diagnostic;
    }));
  };
  store.add(vscode.workspace.onDidOpenTextDocument(update));
  store.add(vscode.workspace.onDidSaveTextDocument(update));
  store.add(vscode.workspace.onDidCloseTextDocument((d) => collection.delete(d.uri)));
  for (const document of vscode.workspace.textDocuments) update(document);
  return store;
}
