import { estimateTextTokens, CHARS_PER_TOKEN } from '../../inference/index';
import type { InstructionKind, InstructionSource } from './discover';

/**
 * The system-message section built from the discovered sources, capped to a share of the model's
 * context.
 *
 * Precedence, operationally:
 *  - Sending order is the discovery order (user file, root AGENTS.md, nested AGENTS.md from the
 *    outermost to the nearest, copilot-instructions, applyTo files), so a nearer AGENTS.md sits
 *    later, closer to the user's message.
 *  - A preamble states the rule the model is to follow on a conflict (two files asking for
 *    incompatible things for the same file): the user's own file wins over repository files; among
 *    AGENTS.md files the nearest to the file in question wins; each block's header says where it
 *    applies and, for a nested AGENTS.md, that it takes precedence over the ones above it.
 *  - Under the token cap, sources are kept in precedence order (user, nearest AGENTS.md first, root
 *    AGENTS.md, copilot-instructions, applyTo files); the first that does not fit is cut at a line
 *    boundary, the rest are left out, and each cut is reported.
 */

export interface InstructionCut {
  readonly path: string;
  /** 'truncated': its beginning was kept; 'omitted': none of it was sent. */
  readonly kind: 'truncated' | 'omitted';
  readonly keptTokens: number;
  readonly totalTokens: number;
  /** One line for the chat ("AGENTS.md: cut to ~1,200 of ~3,400 tokens ..."). */
  readonly note: string;
}

export interface InstructionsSection {
  /** The text to append to the system message; '' when nothing applies. */
  readonly text: string;
  /** Paths of the files sent (in full or cut), in sending order, for "Used ..." references. */
  readonly used: readonly string[];
  readonly cuts: readonly InstructionCut[];
  readonly tokens: number;
}

/** The share of the context instructions may take: 15%, at least 256 and at most 8,192 tokens. */
export function instructionsTokenBudget(maxModelLen: number): number {
  if (!Number.isFinite(maxModelLen) || maxModelLen <= 0) return 256;
  return Math.max(256, Math.min(8192, Math.floor(maxModelLen * 0.15)));
}

export const PREAMBLE =
  'Instructions from the user and from this repository follow. Follow them. Where two of them conflict for the same file: the user\'s own instructions win over the repository\'s; among AGENTS.md files, the one nearest to that file wins (they are listed from the workspace root down, so a later one overrides an earlier one for the files under its folder). Each block applies only where its header says.';

const KEEP_ORDER: Record<InstructionKind, number> = { user: 0, 'agents-nested': 1, 'agents-root': 2, copilot: 3, applyTo: 4 };
const CUT_MARK = '\n[... cut: the rest of this file did not fit the model\'s context]';

function header(source: InstructionSource): string {
  const files = source.forFiles && source.forFiles.length > 0 ? ` (for ${source.forFiles.slice(0, 5).join(', ')}${source.forFiles.length > 5 ? ', ...' : ''})` : '';
  switch (source.kind) {
    case 'user':
      return `User instructions (${source.path}); they take precedence over the repository's.`;
    case 'agents-root':
      return `${source.path}: the repository's instructions for the whole workspace.`;
    case 'agents-nested':
      return `${source.path}: applies to files under ${source.scope ?? ''}/${files}; takes precedence over the AGENTS.md files above it for them.`;
    case 'copilot':
      return `${source.path}: the repository's instructions for the whole workspace.`;
    case 'applyTo':
      return `${source.path}: applies to files matching ${source.scope ?? ''}${files}.`;
  }
}

function block(source: InstructionSource, text: string): string {
  const safe = text.replace(/<\/?instructions\b/gi, (m) => m.replace('<', '&lt;'));
  return `<instructions source="${source.path.replace(/"/g, "'")}">\n${header(source)}\n\n${safe}\n</instructions>`;
}

function cutAtLine(text: string, maxChars: number): string {
  if (maxChars <= 0) return '';
  const head = text.slice(0, maxChars);
  const newline = head.lastIndexOf('\n');
  return newline > maxChars / 2 ? head.slice(0, newline) : head;
}

const fmt = (n: number): string => `~${n.toLocaleString('en')}`;

export function buildInstructionsSection(sources: readonly InstructionSource[], maxModelLen: number): InstructionsSection {
  if (sources.length === 0) return { text: '', used: [], cuts: [], tokens: 0 };
  let left = instructionsTokenBudget(maxModelLen) - estimateTextTokens(PREAMBLE);
  const kept = new Map<InstructionSource, string>();
  const cuts: InstructionCut[] = [];
  const byPrecedence = sources
    .map((source, index) => ({ source, index }))
    .sort((a, b) => KEEP_ORDER[a.source.kind] - KEEP_ORDER[b.source.kind] || (a.source.kind === 'agents-nested' ? b.index - a.index : a.index - b.index));
  for (const { source } of byPrecedence) {
    const full = block(source, source.text);
    const total = estimateTextTokens(source.text);
    const cost = estimateTextTokens(full);
    if (cost <= left) {
      kept.set(source, full);
      left -= cost;
      continue;
    }
    const overhead = cost - total + estimateTextTokens(CUT_MARK);
    const room = left - overhead;
    const partial = room >= 32 ? cutAtLine(source.text, room * CHARS_PER_TOKEN) : '';
    if (partial.trim() !== '') {
      const keptTokens = estimateTextTokens(partial);
      kept.set(source, block(source, partial + CUT_MARK));
      left -= estimateTextTokens(kept.get(source) ?? '');
      cuts.push({ path: source.path, kind: 'truncated', keptTokens, totalTokens: total, note: `${source.path}: cut to ${fmt(keptTokens)} of ${fmt(total)} tokens to fit the model's context.` });
    } else {
      cuts.push({ path: source.path, kind: 'omitted', keptTokens: 0, totalTokens: total, note: `${source.path}: left out (${fmt(total)} tokens) to fit the model's context.` });
    }
    left = Math.min(left, 0); // what follows in precedence order is left out
  }
  const ordered = sources.filter((s) => kept.has(s));
  if (ordered.length === 0) return { text: '', used: [], cuts, tokens: 0 };
  const text = [PREAMBLE, ...ordered.map((s) => kept.get(s) ?? '')].join('\n\n');
  return { text, used: ordered.map((s) => s.path), cuts, tokens: estimateTextTokens(text) };
}
