import uPlot from 'uplot';
import { formatCompact, formatEur } from '../../core/usage/format';

/** A VS Code theme colour, read when a chart is (re)drawn. */
function themeColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.body).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (!hex?.[1]) return color;
  const n = parseInt(hex[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

export interface ChartSpec {
  kind: 'area' | 'bars';
  /** Unix ms per point. */
  t: number[];
  series: { label: string; values: number[]; color: string; fallback: string }[];
  money?: boolean;
}

/** One uPlot chart, themed from VS Code's CSS variables; `redraw` re-creates it (theme change). */
export class Chart {
  private plot: uPlot | undefined;
  private spec: ChartSpec | undefined;

  constructor(private readonly host: HTMLElement) {}

  private width(): number {
    return Math.max(160, Math.floor(this.host.clientWidth || 280));
  }

  update(spec: ChartSpec): void {
    const sameShape = this.plot && this.spec && this.spec.series.length === spec.series.length && this.spec.kind === spec.kind;
    this.spec = spec;
    if (sameShape && this.plot) this.plot.setData(this.data(spec));
    else this.redraw();
  }

  private data(spec: ChartSpec): uPlot.AlignedData {
    return [spec.t.map((t) => t / 1000), ...spec.series.map((s) => s.values)];
  }

  redraw(): void {
    this.plot?.destroy();
    this.plot = undefined;
    const spec = this.spec;
    if (!spec) return;
    const fg = themeColor('--vscode-descriptionForeground', '#888888');
    const grid = withAlpha(themeColor('--vscode-foreground', '#888888'), 0.12);
    const font = `11px ${themeColor('--vscode-font-family', 'sans-serif')}`;
    const axis = (values?: uPlot.Axis['values']): uPlot.Axis => ({ stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, font, ...(values ? { values } : {}) });
    const bars = uPlot.paths.bars?.({ size: [0.7, 40] });
    const opts: uPlot.Options = {
      width: this.width(),
      height: 140,
      legend: { show: true },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [axis(), axis((_u, splits) => splits.map((v) => (spec.money ? formatEur(v) : formatCompact(v))))],
      series: [
        {},
        ...spec.series.map((s): uPlot.Series => {
          const color = themeColor(s.color, s.fallback);
          return {
            label: s.label,
            stroke: color,
            width: 1.5,
            fill: withAlpha(color, spec.kind === 'bars' ? 0.7 : 0.18),
            points: { show: false },
            value: (_u, v) => (v === null ? '–' : spec.money ? formatEur(v) : formatCompact(v)),
            ...(spec.kind === 'bars' && bars ? { paths: bars } : {}),
          };
        }),
      ],
    };
    this.plot = new uPlot(opts, this.data(spec), this.host);
  }

  resize(): void {
    this.plot?.setSize({ width: this.width(), height: 140 });
  }
}
