/**
 * The scripted answer to a review prompt (src/core/review/prompt.ts): a conversation whose system
 * message starts with `You review code changes`. The user message holds the diff: `### <path>
 * (<status>, +a -r)` headers (or `### <old> → <new> (...)`, perhaps followed by ` (continued)`)
 * and rows `<new line number> +<text>` for added lines. The findings depend only on those rows:
 *
 * - an added line containing `eval(`: an `error` / `security` finding on that line, message
 *   `eval runs arbitrary code from its input.`, suggestion `rename eval to safeEval`;
 * - containing `REVIEW-FAR`: a `warning` / `bug` finding 1000 lines below it (outside the diff);
 * - containing `REVIEW-ELSEWHERE`: an `info` finding on `docs/elsewhere.md` line 3 (not in the diff);
 * - containing `TODO`: an `info` / `other` finding `Unfinished work left in the change.`;
 * - containing `REVIEW-BAD`: an item without a line (a bad item the client must skip).
 *
 * The answer is a ```json fence holding the array (`[]` when nothing matched); with
 * `REVIEW-CHATTY` anywhere in the diff, a sentence before the fence and one after it.
 */

export const REVIEW_SYSTEM_START = 'You review code changes';

const HEADER = /^### (?:.+ → )?(.+?) \((?:added|modified|deleted|renamed), \+\d+ -\d+\)(?: \(continued\))?$/;
const ADDED = /^\s*(\d+) \+(.*)$/;

export function reviewReply(system: string, user: string): string | undefined {
  if (!system.startsWith(REVIEW_SYSTEM_START)) return undefined;
  const findings: Array<Record<string, unknown>> = [];
  let file = '';
  for (const row of user.split('\n')) {
    const header = HEADER.exec(row);
    if (header) {
      file = header[1] ?? '';
      continue;
    }
    const added = ADDED.exec(row);
    if (!added || file === '') continue;
    const line = Number(added[1]);
    const text = added[2] ?? '';
    if (text.includes('eval(')) findings.push({ file, line, severity: 'error', category: 'security', message: 'eval runs arbitrary code from its input.', suggestion: 'rename eval to safeEval' });
    if (text.includes('REVIEW-FAR')) findings.push({ file, line: line + 1000, severity: 'warning', category: 'bug', message: 'This finding names a line far from the change.' });
    if (text.includes('REVIEW-ELSEWHERE')) findings.push({ file: 'docs/elsewhere.md', line: 3, severity: 'info', category: 'other', message: 'The documentation should mention this change.' });
    if (text.includes('TODO')) findings.push({ file, line, severity: 'info', category: 'other', message: 'Unfinished work left in the change.' });
    if (text.includes('REVIEW-BAD')) findings.push({ file, severity: 'warning', message: 'An item without a line.' });
  }
  const fence = `\`\`\`json\n${JSON.stringify(findings, null, 2)}\n\`\`\``;
  return user.includes('REVIEW-CHATTY') ? `Here is what I found in the changes.\n\n${fence}\n\nLet me know if you want more detail.` : fence;
}
