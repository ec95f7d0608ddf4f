/** Reciprocal rank fusion: score(d) = Σ 1 / (k + rank(d)) over the lists, rank 1-based. */
export function reciprocalRankFusion<K>(lists: ReadonlyArray<readonly K[]>, k = 60): Array<{ key: K; score: number }> {
  const scores = new Map<K, number>();
  const first = new Map<K, number>();
  let order = 0;
  for (const list of lists) {
    list.forEach((key, i) => {
      scores.set(key, (scores.get(key) ?? 0) + 1 / (k + i + 1));
      if (!first.has(key)) first.set(key, order++);
    });
  }
  return [...scores.entries()]
    .map(([key, score]) => ({ key, score }))
    .sort((a, b) => b.score - a.score || (first.get(a.key) ?? 0) - (first.get(b.key) ?? 0));
}
