import * as vscode from 'vscode';
import type { NextEditSuggestion } from '../../core/nextEdit';

/** Theme colours contributed in package.json (`contributes.colors`), light, dark and high contrast. */
export const NextEditColors = {
  removedBackground: 'stratus.nextEdit.removedBackground',
  insertedBackground: 'stratus.nextEdit.insertedBackground',
  insertedBorder: 'stratus.nextEdit.insertedBorder',
  hintForeground: 'stratus.nextEdit.hintForeground',
} as const;

/** Inserted text is shown on one line, cut here. */
const MAX_SHOWN_CHARS = 160;

/** What the decorations show now (host tests). */
export interface RenderedSuggestion {
  removed: number;
  inserted: string[];
  gutterLines: number[];
  /** The hint at the cursor's line when the suggestion is out of view. */
  hint: string | undefined;
}

/** Inserted text as one line of an `after` attachment: line ends as ⏎, tabs as spaces, cut. */
export function shownInsertion(text: string, tabSize: number): string {
  const one = text.replace(/\r?\n/g, ' ⏎ ').replace(/\t/g, ' '.repeat(Math.max(1, tabSize)));
  return one.length > MAX_SHOWN_CHARS ? `${one.slice(0, MAX_SHOWN_CHARS - 1)}…` : one;
}

function rangeOf(edit: NextEditSuggestion['edits'][number]): vscode.Range {
  return new vscode.Range(edit.range.start.line, edit.range.start.character, edit.range.end.line, edit.range.end.character);
}

/** The lines a suggestion touches, first to last. */
export function suggestionRange(suggestion: NextEditSuggestion): vscode.Range {
  const first = suggestion.edits[0];
  const last = suggestion.edits.at(-1);
  if (!first || !last) return new vscode.Range(suggestion.jumpTo.line, 0, suggestion.jumpTo.line, 0);
  return new vscode.Range(first.range.start.line, first.range.start.character, last.range.end.line, last.range.end.character);
}

/**
 * A next edit as a diff in the editor, with stable decorations only: the removed text struck
 * through on a red background, the inserted text in a green box right after it, an arrow in the
 * gutter; and, when it is out of view, a hint at the cursor's line.
 */
export class NextEditDecorations implements vscode.Disposable {
  private readonly removed = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(NextEditColors.removedBackground),
    textDecoration: 'line-through',
  });
  private readonly inserted = vscode.window.createTextEditorDecorationType({});
  private readonly gutter: vscode.TextEditorDecorationType;
  private readonly hint = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor(NextEditColors.hintForeground), fontStyle: 'italic', margin: '0 0 0 2em' },
  });
  private editor: vscode.TextEditor | undefined;
  current: RenderedSuggestion | undefined;

  constructor(extensionUri: vscode.Uri) {
    this.gutter = vscode.window.createTextEditorDecorationType({
      light: { gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'nextEdit-light.svg') },
      dark: { gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'nextEdit-dark.svg') },
      gutterIconSize: 'contain',
    });
  }

  /** Shows `suggestion` in `editor` (`hint`: the line and text of the out-of-view hint). */
  render(editor: vscode.TextEditor, suggestion: NextEditSuggestion, hint: { line: number; text: string } | undefined): void {
    if (this.editor && this.editor !== editor) this.clear();
    this.editor = editor;
    const tabSize = typeof editor.options.tabSize === 'number' ? editor.options.tabSize : 4;
    const removed: vscode.Range[] = [];
    const inserted: vscode.DecorationOptions[] = [];
    const hover = new vscode.MarkdownString();
    hover.appendCodeblock(suggestion.edits.map((e) => [...lines('-', e.oldText), ...lines('+', e.newText)].join('\n')).join('\n'), 'diff');
    for (const edit of suggestion.edits) {
      const range = rangeOf(edit);
      if (!range.isEmpty) removed.push(range);
      if (edit.newText === '') continue;
      inserted.push({
        range: new vscode.Range(range.end, range.end),
        hoverMessage: hover,
        renderOptions: {
          after: {
            contentText: shownInsertion(edit.newText, tabSize),
            backgroundColor: new vscode.ThemeColor(NextEditColors.insertedBackground),
            border: '1px solid',
            borderColor: new vscode.ThemeColor(NextEditColors.insertedBorder),
            margin: '0 0 0 2px',
          },
        },
      });
    }
    const gutterLines = [...new Set(suggestion.edits.map((e) => e.range.start.line))];
    editor.setDecorations(this.removed, removed.map((range) => ({ range, hoverMessage: hover })));
    editor.setDecorations(this.inserted, inserted);
    editor.setDecorations(this.gutter, gutterLines.map((line) => new vscode.Range(line, 0, line, 0)));
    editor.setDecorations(this.hint, hint ? [{ range: new vscode.Range(hint.line, Number.MAX_SAFE_INTEGER, hint.line, Number.MAX_SAFE_INTEGER), renderOptions: { after: { contentText: hint.text } } }] : []);
    this.current = { removed: removed.length, inserted: inserted.map((i) => i.renderOptions?.after?.contentText ?? ''), gutterLines, hint: hint?.text };
  }

  clear(): void {
    for (const type of [this.removed, this.inserted, this.gutter, this.hint]) this.editor?.setDecorations(type, []);
    this.editor = undefined;
    this.current = undefined;
  }

  dispose(): void {
    this.clear();
    for (const type of [this.removed, this.inserted, this.gutter, this.hint]) type.dispose();
  }
}

function lines(sign: string, text: string): string[] {
  return text === '' ? [] : text.replace(/\r\n/g, '\n').split('\n').map((l) => `${sign}${l}`);
}
