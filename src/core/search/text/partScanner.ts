import { PART_SCANNER_WASM } from './partScannerWasm';

/** The slice of the WebAssembly API used here (the project's `lib` has no DOM, which declares it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: unknown };
}
const wasmApi = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/** What the WebAssembly module exports (src/core/search/text/wasm/partScanner.ts). */
interface ScannerExports {
  memory: { buffer: ArrayBuffer };
  init(): void;
  textArea(chars: number): number;
  idsArea(): number;
  clear(): void;
  scan(from: number, to: number): number;
}

/** Compiled once per thread (a few KB: well under a millisecond). */
let compiled: object | undefined;

/**
 * The indexer's part scanner: `forEachHashedPart` and the part table in WebAssembly (see
 * src/core/search/text/wasm/partScanner.ts). A text is loaded once (copied as UTF-16), then each scan
 * of a range of it gives the term ids of its parts in `ids`; a part never seen is asked of
 * `termOfPart` (its offsets in the loaded text; -1 for filler) and remembered.
 */
export class PartScanner {
  private readonly wasm: ScannerExports;
  private memory: Buffer = Buffer.alloc(0);
  private textAt = 0;
  /** The term ids of the last scan, from index 0 (a view of the module's memory). */
  ids: Int32Array = new Int32Array(0);

  constructor(termOfPart: (start: number, end: number) => number) {
    compiled ??= new wasmApi.Module(Buffer.from(PART_SCANNER_WASM, 'base64'));
    this.wasm = new wasmApi.Instance(compiled, { env: { termOfPart } }).exports as ScannerExports;
    this.wasm.init();
  }

  /** Copies `text` into the module (each `scan` reads a range of it). */
  load(text: string): void {
    this.textAt = this.wasm.textArea(text.length);
    this.views();
    this.memory.write(text, this.textAt, 'utf16le');
  }

  /** Scans `[from, to)` of the loaded text: the term ids of its parts (filler left out) are `ids[0, n)`; returns n. */
  scan(from: number, to: number): number {
    const n = this.wasm.scan(from, to);
    // A scan may grow the memory, which detaches the old buffer: the ids' view then has no
    // length (a cheaper test than the memory's buffer getter). Their place moves only in `load`.
    if (this.ids.length === 0) this.views();
    return n;
  }

  /** Forgets every part seen (the term ids were renumbered). */
  clear(): void {
    this.wasm.clear();
  }

  /** Views of the module's memory, made again when it grew (a grown memory has a new buffer) or the ids moved. */
  private views(): void {
    const buffer = this.wasm.memory.buffer;
    const at = this.wasm.idsArea();
    if (this.memory.buffer === buffer && this.ids.byteOffset === at) return;
    this.memory = Buffer.from(buffer);
    this.ids = new Int32Array(buffer, at, (buffer.byteLength - at) >> 2);
  }
}
