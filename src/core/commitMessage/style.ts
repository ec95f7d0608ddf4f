/** How a repository writes its commit subjects, read from its recent history. */
export interface CommitStyle {
  /** Most subjects follow Conventional Commits (`type(scope)!: summary`). */
  conventional: boolean;
  /** Conventional types in use, most frequent first (empty when not conventional). */
  types: string[];
  /** Conventional scopes in use, most frequent first. */
  scopes: string[];
  /** Most subjects start with a capital letter (after the `type: ` prefix when conventional). */
  capitalised: boolean;
  /** Most subjects end with a period. */
  trailingPeriod: boolean;
  /** A ticket reference most subjects carry at their start (`[ABC-12]`, `ABC-12:`), as a sample. */
  ticketPrefix?: string;
  /** Up to five recent subjects to imitate (merges left out). */
  examples: string[];
}

const CONVENTIONAL = /^([a-z][a-z0-9-]*)(?:\(([^()\n]+)\))?!?: \S/;
const MERGE = /^(?:Merge (?:branch|pull request|remote-tracking branch|tag)\b|Revert ")/;
const TICKET = /^\[?[A-Z][A-Z0-9]+-\d+\]?:?\s/;
/** Fewer non-merge subjects than this: not enough to call it a style. */
const MIN_SUBJECTS = 3;

function byFrequency(values: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([v]) => v);
}

/** The first line of each commit message, trimmed; empty ones dropped. */
export function subjectsOf(messages: readonly string[]): string[] {
  return messages.map((m) => (m.split('\n', 1)[0] ?? '').trim()).filter((s) => s !== '');
}

/**
 * Reads the style of `subjects` (newest first). A style is claimed only by a majority of at least
 * three non-merge subjects, so a young or mixed history is left to the model's defaults.
 */
export function detectStyle(subjects: readonly string[]): CommitStyle {
  const own = subjects.filter((s) => !MERGE.test(s));
  const examples = own.slice(0, 5);
  const majority = (n: number): boolean => own.length >= MIN_SUBJECTS && n * 2 > own.length;
  const conventionalMatches = own.map((s) => CONVENTIONAL.exec(s)).filter((m): m is RegExpExecArray => m !== null);
  const conventional = majority(conventionalMatches.length);
  const summaries = own.map((s) => {
    const m = CONVENTIONAL.exec(s);
    const rest = m ? s.slice(s.indexOf(': ') + 2) : s;
    return rest.replace(TICKET, '');
  });
  const tickets = own.map((s) => TICKET.exec(s)?.[0].trim()).filter((t): t is string => t !== undefined);
  return {
    conventional,
    types: conventional ? byFrequency(conventionalMatches.map((m) => m[1] as string)) : [],
    scopes: conventional ? byFrequency(conventionalMatches.map((m) => m[2]).filter((s): s is string => s !== undefined)) : [],
    capitalised: majority(summaries.filter((s) => /^\p{Lu}/u.test(s)).length),
    trailingPeriod: majority(own.filter((s) => s.endsWith('.')).length),
    ...(majority(tickets.length) ? { ticketPrefix: tickets[0] as string } : {}),
    examples,
  };
}

/** The style as instructions for the model (plain sentences; empty when there is nothing to follow). */
export function styleInstructions(style: CommitStyle): string[] {
  const lines: string[] = [];
  if (style.conventional) {
    const types = style.types.slice(0, 8).join(', ');
    const scopes = style.scopes.slice(0, 8).join(', ');
    lines.push(`This repository uses Conventional Commits: write the subject as "type(scope): summary"${types ? ` with one of the types it uses (${types})` : ''}${scopes ? `; scopes it uses: ${scopes}` : ''}.`);
  }
  if (style.ticketPrefix) lines.push(`Subjects start with a ticket reference such as "${style.ticketPrefix}"; keep that form if the changes name a ticket, never invent one.`);
  if (style.examples.length >= MIN_SUBJECTS) {
    lines.push(style.capitalised ? 'Start the summary with a capital letter.' : 'Start the summary with a lower-case letter.');
    lines.push(style.trailingPeriod ? 'End the subject with a period.' : 'Do not end the subject with a period.');
  }
  return lines;
}
