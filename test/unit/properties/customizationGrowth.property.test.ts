import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { fileLinks, parseAgentFile, parsePromptFile, parseSkill, promptInputs, resolveVariables } from '../../../src/core/agent/customization/index';
import { leastCpu, repsFor } from './growth';
import { check } from './harness';

// Issue 40, item 3: a prompt file, agent or skill comes from a repository and is parsed on the
// extension host (diagnostics on open, in Restricted Mode too; the skills on every trusted turn).
// Whatever the file holds, the parse's work grows linearly with its size: the time at 8n is
// compared with the time at n (the same file shape), never with a fixed duration.

/** A hostile file: `prefix`, then `unit` repeated to the size asked, then `suffix`. */
interface Shape {
  readonly prefix: string;
  readonly unit: string;
  readonly suffix: string;
}

/** The shapes the reviews measured (each cubic or quadratic before), as written in the issue. */
const MEASURED: readonly Shape[] = [
  { prefix: '---\n', unit: 'a: ["\\"\n', suffix: '---\nbody' }, // a `\"` on every line: cubic
  { prefix: '---\ndescription: a', unit: ' ', suffix: 'b\n---\n' }, // a run of spaces: the comment strip
  { prefix: '---\ntools:\n  - a', unit: ' ', suffix: 'b\n---\n' },
  { prefix: '---\ndescription:', unit: ' ', suffix: 'x\ry\n---\n' }, // a lone CR after spaces
  { prefix: '---\n---\n', unit: '${', suffix: '' },
  { prefix: '---\n---\n', unit: '${input:a:', suffix: '' },
  { prefix: '---\ntools: [\n', unit: 'a,\n', suffix: '---\n' }, // an unclosed `tools: [`
  { prefix: '---\n', unit: "a: ['\n", suffix: '---\n' },
  { prefix: '---\n---\n', unit: '[a](', suffix: '' },
  { prefix: '---\n---\n', unit: '[', suffix: '' },
  { prefix: '---\n---\n[a](<', unit: '#\r', suffix: '>)' },
  { prefix: '---\ndescription: |\n', unit: '  a\n', suffix: '---\n' },
];

const HOSTILE = ['"', "'", '\\', '[', ']', ' ', '\t', '\r', '\n', '#', '$', '{', '}', ':', '-', '(', ')', '<', '>', 'a', ',', '|', '`'];
const generated: fc.Arbitrary<Shape> = fc.record({
  prefix: fc.constantFrom('---\n', '---\ntools: [', '---\ndescription: ', '---\nhandoffs:\n  - label: ', '---\n---\n', ''),
  unit: fc.array(fc.constantFrom(...HOSTILE), { minLength: 1, maxLength: 8 }).map((a) => a.join('')),
  suffix: fc.constantFrom('', '\n---\n', ']\n---\n', '"\n---\nbody'),
});

function fileOf(shape: Shape, size: number): string {
  return `${shape.prefix}${shape.unit.repeat(Math.max(1, Math.ceil(size / shape.unit.length)))}${shape.suffix}`;
}

/** What the features do with such a file: each parser, and the body's variables and links. */
function parseAll(text: string): void {
  const prompt = parsePromptFile(text, 'p.prompt.md');
  parseAgentFile(text, 'a.agent.md');
  parseSkill(text, 'skill');
  fileLinks(prompt.body);
  promptInputs(prompt.body);
  resolveVariables(prompt.body, { inputs: new Map(), selection: 'x' });
}

/**
 * The least CPU time (µs) over a few batches of `rounds` parses: CPU, not wall time (a loaded
 * machine makes the longer batch wait for a CPU more often), and the least is the one least
 * disturbed by collector threads and cold caches.
 */
function leastTime(text: string, rounds: number): number {
  return leastCpu(3, rounds, () => parseAll(text));
}

/** 8 KB and 64 KB: the texts stay small enough for the engine's ordinary heap (larger ones skew the times). */
const SMALL = 8 * 1024;
/**
 * Linear work gives about 8, quadratic 64, cubic 512. Linear work can read up to ~30 here: V8 puts
 * an array of more than ~16,000 elements (the lines of a file of one- or two-character lines) in its
 * large-object space, where every line stored costs ~4x more (measured: `split` at 8 KB and 64 KB of
 * `\n"` lines, 6 and 25 ns a character, then flat to 256 KB). The bound is growth.ts' default.
 */
const MAX_GROWTH = 40;

/** The time at 8n over the time at n for one shape: the least of up to three tries (a busy machine inflates one, not all). */
function growth(shape: Shape): number {
  const small = fileOf(shape, SMALL);
  const large = fileOf(shape, 8 * SMALL);
  parseAll(small); // compiled before it is timed
  // Enough rounds that the small file's batch takes a few milliseconds of CPU.
  const rounds = repsFor(() => parseAll(small), 3_000, 16_384);
  let least = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && least >= MAX_GROWTH; attempt++) least = Math.min(least, leastTime(large, rounds) / leastTime(small, rounds));
  return least;
}

describe('properties: customization parsers grow linearly on hostile files (issue 40)', function () {
  this.timeout(120_000);

  it('each shape the reviews measured: the work at 8n is at most 40 times the work at n', () => {
    for (const shape of MEASURED) {
      const ratio = growth(shape);
      assert.ok(ratio < MAX_GROWTH, `${JSON.stringify(shape.unit)} after ${JSON.stringify(shape.prefix)}: ${ratio.toFixed(1)}x the work for 8x the size`);
    }
  });

  it('generated hostile files: the work at 8n is at most 40 times the work at n', () => {
    check(
      fc.property(generated, (shape) => {
        const ratio = growth(shape);
        assert.ok(ratio < MAX_GROWTH, `${ratio.toFixed(1)}x the work for 8x the size`);
      }),
      15,
    );
  });
});
