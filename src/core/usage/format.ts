/** Number formatting shared by the status bar, `/usage`, the CSV and the webview (no locale surprises). */

/** 1234567 -> "1 234 567" (thin grouping with a plain space, readable in every locale). */
export function formatInt(n: number): string {
  const sign = n < 0 ? '-' : '';
  const digits = String(Math.round(Math.abs(n)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** 1500 -> "1.5k", 2300000 -> "2.3M". */
export function formatCompact(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1_000_000) return `${(n / 1_000_000).toFixed(abs >= 10_000_000 ? 0 : 1).replace(/\.0$/, '')}M`;
  if (abs >= 1_000) return `${(n / 1_000).toFixed(abs >= 10_000 ? 0 : 1).replace(/\.0$/, '')}k`;
  return String(Math.round(n));
}

/** EUR with cents, or four decimals under one cent so tiny spends are not shown as zero. */
export function formatEur(n: number): string {
  if (n !== 0 && Math.abs(n) < 0.01) return `€${n.toFixed(4)}`;
  return `€${n.toFixed(2)}`;
}

export function percent(used: number, cap: number | undefined): number | undefined {
  if (cap === undefined || cap <= 0) return undefined;
  return (used / cap) * 100;
}
