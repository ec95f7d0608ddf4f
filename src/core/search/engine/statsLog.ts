import type { Logger } from '../../log';
import type { IndexStats } from '../shared/searchTypes';

/** One line on what an open of the index did and skipped (and a sample of the skipped paths at debug level). */
export function logIndexStats(logger: Logger, stats: IndexStats, maxFileSizeBytes: number): void {
  const s = stats.skipped;
  const skippedTotal = Object.values(s).reduce((a, b) => a + b, 0);
  logger.info(
    `Search index ${stats.source === 'loaded' ? 'loaded and updated' : 'built'}: ${stats.files} files, ${stats.chunks} chunks ` +
      `(${stats.indexed} indexed now${stats.removed ? `, ${stats.removed} removed` : ''}); skipped ${skippedTotal}: ` +
      `${s.excluded} excluded by files.exclude/search.exclude, ${s.gitignored} by .gitignore, ${s.binary} binary, ` +
      `${s.too_large} over ${Math.round(maxFileSizeBytes / 1024)} KB, ${s.unreadable} unreadable; ${stats.ms.toFixed(0)} ms.`,
  );
  for (const { path, reason } of stats.skippedSample) logger.debug(`Search index skipped ${path || '(root)'}: ${reason}`);
}
