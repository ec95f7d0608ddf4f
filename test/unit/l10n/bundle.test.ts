import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';

const repoRoot = join(__dirname, '..', '..', '..');
const french = JSON.parse(readFileSync(join(repoRoot, 'l10n', 'bundle.l10n.fr.json'), 'utf8')) as Record<string, string | { message: string; comment: string[] }>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

interface Use { file: string; message: string | undefined; line: number }

/** Every `vscode.l10n.t(...)` / `l10n.t(...)` call in src, with its message when it is a literal. */
function l10nCalls(): Use[] {
  const uses: Use[] = [];
  for (const file of sourceFiles(join(repoRoot, 'src'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 't'
        && /(^|\.)l10n$/.test(node.expression.expression.getText(source))) {
        const first = node.arguments[0];
        const message = first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) ? first.text : undefined;
        uses.push({ file: file.slice(repoRoot.length + 1), message, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return uses;
}

/** The `{0}`, `{1}`... placeholders of a message. */
const placeholders = (text: string): string[] => [...new Set(text.match(/\{\d+\}/g) ?? [])].sort();

describe('l10n: the French bundle', () => {
  const uses = l10nCalls();

  it('finds the localised messages of src/features and src/platform', () => {
    assert.ok(uses.length > 150, `only ${uses.length} l10n.t calls found`);
    assert.deepEqual(uses.filter((use) => use.file.startsWith(join('src', 'core'))), [], 'src/core cannot use vscode.l10n');
  });

  it('every vscode.l10n.t message is a literal with a French translation that keeps its placeholders', () => {
    const problems: string[] = [];
    for (const use of uses) {
      const where = `${use.file}:${use.line}`;
      if (use.message === undefined) { problems.push(`${where}: the message is not a string literal`); continue; }
      const entry = french[use.message];
      const translated = typeof entry === 'string' ? entry : entry?.message;
      if (translated === undefined) problems.push(`${where}: no French for ${JSON.stringify(use.message)}`);
      else if (placeholders(translated).join() !== placeholders(use.message).join()) problems.push(`${where}: placeholders differ in ${JSON.stringify(use.message)}`);
    }
    assert.deepEqual(problems, []);
  });

  it('has no stale entries (every French entry is used by a message)', () => {
    const used = new Set(uses.map((use) => use.message));
    assert.deepEqual(Object.keys(french).filter((key) => !used.has(key)), []);
  });
});
