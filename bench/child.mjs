// One benchmark client in its own process. Invoked by bench/run.mjs as
//   node --expose-gc bench/child.mjs '<json task>'
// and prints one JSON line (prefixed `RESULT `) on stdout. Any miscount or error exits non-zero.
//
// task: { client, adapter (absolute path of the module exporting setup(baseURL)), baseURL, mode,
//         model, expect, warmModel, warmExpect, chunks, n, warmups }
//   mode "stream": one warm-up stream (warmModel), then the timed stream (model) `repeats` times
//                  (default 1); the fastest run's wall and CPU time are reported, the first run's RSS.
//   mode "ttfd":   `warmups` warm-up requests, then `n` timed requests to the `first` model.
//   mode "cold":   the first request of a fresh process, from before the client's module is loaded
//                  to its first delta (module loads and the engine's lazy initialisation included).
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runMain } from './lib.mjs';

const task = JSON.parse(process.argv[2] ?? '');

function makeSink() {
  const seen = { text: 0, textChars: 0, tool: 0, toolChars: 0, callLengths: undefined, first: 0 };
  return {
    seen,
    sink: {
      text(t) {
        if (seen.text + seen.tool === 0) seen.first = performance.now();
        seen.text++;
        seen.textChars += t.length;
      },
      tool(_index, args) {
        if (seen.text + seen.tool === 0) seen.first = performance.now();
        seen.tool++;
        seen.toolChars += args.length;
      },
      calls(lengths) {
        seen.callLengths = lengths;
      },
    },
  };
}

function check(seen, expect, what) {
  const problems = [];
  for (const k of ['text', 'textChars', 'tool', 'toolChars']) {
    if (seen[k] !== expect[k]) problems.push(`${k}: saw ${seen[k]}, expected ${expect[k]}`);
  }
  if (seen.callLengths && expect.argsLengths && JSON.stringify(seen.callLengths) !== JSON.stringify(expect.argsLengths)) {
    problems.push(`assembled tool calls: lengths ${JSON.stringify(seen.callLengths)}, expected ${JSON.stringify(expect.argsLengths)}`);
  }
  if (problems.length) throw new Error(`${task.client} ${what}: wrong deltas: ${problems.join('; ')}`);
}

const mb = (kb) => kb / 1024;

// Peak RSS. process.resourceUsage().maxRSS is not usable on Linux here: a spawned child inherits
// the parent's RSS at fork time as its starting maxRSS (the parent holds the pre-rendered bodies).
// /proc/self/status VmHWM belongs to the child's own address space, and writing 5 to
// /proc/self/clear_refs resets it, so the peak of the timed run alone can be read.
function procStatus() {
  try {
    const text = readFileSync('/proc/self/status', 'utf8');
    const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(text)?.[1]);
    return { hwmKb: kb('VmHWM'), rssKb: kb('VmRSS') };
  } catch {
    return undefined;
  }
}
function resetPeak() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

async function main() {
  const loadStarted = performance.now();
  const { setup } = await import(pathToFileURL(task.adapter).href);
  const adapter = setup(task.baseURL);
  const out = { client: task.client, mode: task.mode, model: task.model };
  try {
    if (task.mode === 'stream') {
      const warm = makeSink();
      await adapter.run(task.warmModel, warm.sink);
      check(warm.seen, task.warmExpect, 'warm-up');
      globalThis.gc?.();
      const rssBefore = process.memoryUsage().rss / 1024 / 1024;
      const peakReset = resetPeak();
      const timed = async () => {
        const { seen, sink } = makeSink();
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await adapter.run(task.model, sink);
        const wallMs = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        check(seen, task.expect, task.model);
        return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
      };
      const runs = [await timed()];
      const status = procStatus();
      const maxRssMb = mb(process.resourceUsage().maxRSS);
      // Peak of the first timed run (VmHWM after a reset); without /proc, the process-wide maxRSS.
      const peakRssMb = status && peakReset ? mb(status.hwmKb) : maxRssMb;
      // The same stream again (`repeats` in all), and the fastest run is the client's figure: what
      // the machine adds (another process's burst, a slow moment) only ever lengthens a run.
      for (let i = 1; i < (task.repeats ?? 1); i++) {
        globalThis.gc?.();
        runs.push(await timed());
      }
      const fastest = runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
      Object.assign(out, {
        chunks: task.chunks,
        wallMs: fastest.wallMs,
        cpuMs: fastest.cpuMs,
        wallMsRuns: runs.map((r) => Number(r.wallMs.toFixed(1))),
        peakRssMb,
        peakSource: status && peakReset ? 'VmHWM' : 'maxRSS',
        maxRssMb,
        baselineRssMb: rssBefore,
        rssGrowthMb: Math.max(0, peakRssMb - rssBefore),
      });
    } else if (task.mode === 'cold') {
      const { seen, sink } = makeSink();
      await adapter.run('first', sink);
      check(seen, task.expect, 'cold');
      Object.assign(out, { coldMs: seen.first - loadStarted });
    } else if (task.mode === 'ttfd') {
      for (let i = 0; i < task.warmups; i++) {
        const w = makeSink();
        await adapter.run('first', w.sink);
        check(w.seen, task.expect, 'ttfd warm-up');
      }
      const samples = [];
      for (let i = 0; i < task.n; i++) {
        const { seen, sink } = makeSink();
        const t0 = performance.now();
        await adapter.run('first', sink);
        check(seen, task.expect, 'ttfd');
        samples.push(seen.first - t0);
      }
      samples.sort((a, b) => a - b);
      Object.assign(out, { n: samples.length, medianMs: samples[samples.length >> 1], p90Ms: samples[Math.floor(samples.length * 0.9)], minMs: samples[0] });
    } else {
      throw new Error(`unknown mode ${task.mode}`);
    }
  } finally {
    await adapter.close();
  }
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
}

runMain(main);
