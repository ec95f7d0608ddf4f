// The few `vscode` types the quick-fix provider (src/features/quickFix/provider.ts) touches, for
// bench/codeActions.mjs, which runs the provider in plain Node. Written to behave as VS Code's
// own (extHostTypes): positions compare by line then character, kinds nest by '.'-separated prefix.

export class Position {
  /** @param {number} line @param {number} character */
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
  /** @param {Position} other */
  isBefore(other) {
    return this.line < other.line || (this.line === other.line && this.character < other.character);
  }
  /** @param {Position} other */
  isAfter(other) {
    return this.line > other.line || (this.line === other.line && this.character > other.character);
  }
}

export class Range {
  /** @param {number} startLine @param {number} startCharacter @param {number} endLine @param {number} endCharacter */
  constructor(startLine, startCharacter, endLine, endCharacter) {
    this.start = new Position(startLine, startCharacter);
    this.end = new Position(endLine, endCharacter);
  }
}

export class CodeActionKind {
  /** @param {string} value */
  constructor(value) {
    this.value = value;
  }
  /** @param {CodeActionKind} other */
  contains(other) {
    return this.value === '' || this.value === other.value || other.value.startsWith(`${this.value}.`);
  }
  static Empty = new CodeActionKind('');
  static QuickFix = new CodeActionKind('quickfix');
  static Refactor = new CodeActionKind('refactor');
}

export class CodeAction {
  /** @param {string} title @param {CodeActionKind} [kind] */
  constructor(title, kind) {
    this.title = title;
    this.kind = kind;
    /** @type {unknown[] | undefined} */
    this.diagnostics = undefined;
    /** @type {unknown} */
    this.command = undefined;
  }
}

export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };

export class Diagnostic {
  /** @param {Range} range @param {string} message @param {number} [severity] */
  constructor(range, message, severity = DiagnosticSeverity.Error) {
    this.range = range;
    this.message = message;
    this.severity = severity;
    /** @type {string | undefined} */
    this.source = undefined;
    /** @type {string | number | undefined} */
    this.code = undefined;
  }
}
