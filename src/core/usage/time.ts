/**
 * Calendar arithmetic in an IANA time zone, with Intl only (no library). Windows are the local
 * hour, the local day (23 or 25 hours on DST days) and the local calendar month.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

interface LocalParts {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when Intl knows the zone. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The system's zone (VS Code runs in the user's session), UTC if unknown. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function localParts(ms: number, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** Local wall time minus UTC at `ms`, in milliseconds (e.g. +3 600 000 for CET). */
export function offsetAt(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The instant whose local wall time is the given one (first match around DST changes). */
function fromLocal(year: number, month1: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month1 - 1, day);
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}

export function startOfMinute(ms: number): number {
  return ms - (((ms % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
}

export function startOfHour(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  return startOfMinute(ms) - p.minute * MINUTE_MS;
}

export function startOfDay(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  return fromLocal(p.year, p.month, p.day, timeZone);
}

export function startOfNextDay(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  return fromLocal(p.year, p.month, p.day + 1, timeZone);
}

export function startOfMonth(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  return fromLocal(p.year, p.month, 1, timeZone);
}

export function startOfNextMonth(ms: number, timeZone: string): number {
  const p = localParts(ms, timeZone);
  return fromLocal(p.year, p.month + 1, 1, timeZone);
}

/** "HH:MM" in the zone. */
export function formatClock(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

/** "YYYY-MM-DD" in the zone. */
export function formatDate(ms: number, timeZone: string): string {
  const p = localParts(ms, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}
