import { ValidationError } from '../errors';
import { isRecord } from '../json';

/**
 * The arguments of `stratus.editWithInstruction` (the contract other features call it with):
 * `{ uri?: string, range?: { start: { line, character }, end: { line, character } }, instruction?: string, version?: number }`
 * (`version`: the document version the range was read in, so a range read before later edits is
 * found where it moved, or refused as stale).
 * Anything else is refused with a message saying which field is wrong.
 */

export interface EditPosition {
  readonly line: number;
  readonly character: number;
}

export interface EditArgs {
  readonly uri?: string;
  readonly range?: { readonly start: EditPosition; readonly end: EditPosition };
  readonly instruction?: string;
  readonly version?: number;
}

/** Longest instruction accepted (characters). */
export const MAX_INSTRUCTION_CHARS = 4_000;

function position(value: unknown, name: string): EditPosition {
  if (!isRecord(value)) throw new ValidationError(`${name} must be an object { line, character }.`, name);
  const { line, character } = value;
  for (const [key, v] of [['line', line], ['character', character]] as const) {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ValidationError(`${name}.${key} must be a whole number >= 0.`, `${name}.${key}`);
  }
  return { line: line as number, character: character as number };
}

/** Checks what a caller passed; undefined or null means no arguments. */
export function parseEditArgs(value: unknown): EditArgs {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new ValidationError('The arguments of stratus.editWithInstruction must be an object { uri?, range?, instruction? }.', 'args');
  const out: { uri?: string; range?: EditArgs['range']; instruction?: string; version?: number } = {};
  if (value.uri !== undefined) {
    if (typeof value.uri !== 'string' || value.uri.trim() === '') throw new ValidationError('uri must be a document URI string.', 'uri');
    out.uri = value.uri;
  }
  if (value.range !== undefined) {
    if (!isRecord(value.range)) throw new ValidationError('range must be an object { start, end }.', 'range');
    const start = position(value.range.start, 'range.start');
    const end = position(value.range.end, 'range.end');
    if (end.line < start.line || (end.line === start.line && end.character < start.character)) throw new ValidationError('range.end is before range.start.', 'range');
    out.range = { start, end };
  }
  if (value.instruction !== undefined) {
    if (typeof value.instruction !== 'string' || value.instruction.trim() === '') throw new ValidationError('instruction must be a non-empty string.', 'instruction');
    if (value.instruction.length > MAX_INSTRUCTION_CHARS) throw new ValidationError(`instruction is longer than ${MAX_INSTRUCTION_CHARS} characters.`, 'instruction');
    out.instruction = value.instruction.trim();
  }
  if (value.version !== undefined) {
    if (typeof value.version !== 'number' || !Number.isSafeInteger(value.version) || value.version < 0) throw new ValidationError('version must be a whole number >= 0.', 'version');
    out.version = value.version;
  }
  return out;
}
