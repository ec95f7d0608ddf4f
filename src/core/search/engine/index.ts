/**
 * Engine (floor 7 of search): `SearchEngine` (`engine.ts`), the whole pipeline over one
 * workspace: the index opened from storage or built, kept current from file events and saved,
 * and searched through the query stage; and its one log line per open (`statsLog.ts`).
 */
export { SearchEngine } from './engine';
export { logIndexStats } from './statsLog';
