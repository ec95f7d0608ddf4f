/**
 * One file's chunks spread out (issue 41). A file that holds the question's words all through
 * (Theia's `filesystem-watcher-protocol.ts`, containerd's `authorizer.go`) filled the first ten with its
 * chunks, one after the other, and pushed the next files, often the answer, past the places the
 * user and the reranker look at. Each chunk of a file after its best is scored FILE_REPEAT_DECAY
 * times the one before it (the second half, the third a quarter): still there, below the best
 * chunks of other files that score near it.
 *
 * Only a file's later chunks lose: the best chunk of every file keeps its score, so no file's
 * first place can get worse (measured on the quality bench's five corpora: nothing dropped; theia
 * recall@10 0.76 -> 0.84, eslint recall@50 0.98 -> 1.00, rxjs MRR 0.83 -> 0.85).
 */

/** Each further chunk of a file is scored this share of the one before it. */
export const FILE_REPEAT_DECAY = 0.5;

/** `hits`, best first, with each file's later chunks decayed, sorted again (ties keep their order). */
export function spreadFiles<T extends { path: string; score: number }>(hits: readonly T[]): T[] {
  const seen = new Map<string, number>();
  const scored = hits.map((hit, i) => {
    const k = seen.get(hit.path) ?? 0;
    seen.set(hit.path, k + 1);
    return { hit: k === 0 ? hit : { ...hit, score: hit.score * FILE_REPEAT_DECAY ** k }, i };
  });
  scored.sort((a, b) => b.hit.score - a.hit.score || a.i - b.i);
  return scored.map((s) => s.hit);
}
