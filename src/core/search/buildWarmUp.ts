import { chunkRanges } from './chunker';
import { LexicalIndex } from './lexical';

/**
 * JIT warm-up for a build thread. A fresh thread runs the indexing code unoptimised at first: its
 * first few hundred files cost several times what later ones do (chunking ~3x, measured). The
 * build worker is ready tens of milliseconds before the walk gives it files: it spends that wait
 * indexing generated code into a throwaway index, so its first real files run optimised code.
 */

const WORDS = ['refresh', 'token', 'session', 'parcel', 'invoice', 'ledger', 'HTTPServer', 'retry', 'user_id', 'MAX_COUNT', 'café', 'v2', 'decoder', 'queue'];

/** A few hundred lines of code-like text (functions, doc comments, camelCase and snake_case, digits). */
function sampleText(seed: number): string {
  const lines: string[] = [`// Sample ${seed}: ${WORDS.join(' ')}`, "import { fetchLedger } from '../ledger';", ''];
  let k = seed;
  const word = (): string => WORDS[(k = (k * 1103515245 + 12345) & 0x7fffffff) % WORDS.length] ?? 'x';
  for (let f = 0; f < 24; f++) {
    lines.push(`/** ${word()} the ${word()} of a ${word()} before the ${word()} runs. */`);
    lines.push(`export async function ${word()}${word()}${f}(${word()}Id: string, ${word()}: number) {`);
    for (let i = 0; i < 6; i++) lines.push(`  const ${word()}${i} = await ${word()}_${word()}(${word()}Id, ${k % 1000}); // ${word()} ${word()}`);
    lines.push(`  return ${word()}${f};`, '}', '');
  }
  lines.push('# Notes', '', `The ${word()} and the ${word()}.`);
  return lines.join('\n');
}

/** Indexes generated files into a throwaway index for about `ms` milliseconds. */
export function warmUp(ms: number, now: () => number = () => performance.now()): number {
  const until = now() + ms;
  const index = new LexicalIndex();
  const stat = { size: 0, mtime: 0 };
  let files = 0;
  while (now() < until) {
    const path = `src/warm${files % 7}/sample${files}.ts`;
    const text = sampleText(files);
    index.setFileText(path, stat, text, chunkRanges(path, text));
    files++;
  }
  return files;
}
