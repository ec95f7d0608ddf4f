import type { LoadFailure } from '../shared/indexTypes';
import type { SearchSettings } from '../shared/searchTypes';

/**
 * Bump whenever the persisted shape or the tokenising changes: an older file is rebuilt. 6: the
 * segmented format (segmentFormat.ts: binary tables, postings read on demand, a live file beside).
 * 7: exact-name terms beside the parts (`=name` where declared, `@name` for a file's name; text/
 * declarations.ts), long prose lines and CR-only line breaks indexed (issue 34). 8: the generated
 * mark (`!generated`, a term of every chunk of a file whose header says it is generated). 9: the
 * declared-part marks (`~part`, a term of every chunk declaring a name with that part; lexical/declaredParts.ts).
 */
export const INDEX_FORMAT_VERSION = 9;

export function describeLoadFailure(failure: LoadFailure): string {
  switch (failure.reason) {
    case 'corrupt':
      return `unreadable: ${failure.detail}`;
    case 'old_version':
      return `format version ${String(failure.found)}, this version reads ${INDEX_FORMAT_VERSION}`;
    case 'settings_changed':
      return 'built with other search settings';
  }
}


/** What a persisted index must match to be reused (chunking, ignore rules, size cap). */
export function searchSettingsKey(s: SearchSettings): string {
  return JSON.stringify({ v: INDEX_FORMAT_VERSION, c: s.chunk, x: [...s.excludeGlobs].sort(), g: s.useGitignore, m: s.maxFileSizeBytes });
}
