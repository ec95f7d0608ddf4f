/** What every console benchmark adapter implements (see bench/console/child.mjs). */

/** Where the sandbox is and its fake PAT (the first stdout line of test/sandbox/cli.ts). */
export interface ConsoleBenchTarget {
  baseUrl: string;
  patId: string;
  patSecret: string;
}

export interface ConsolePage<R> {
  /** What the client keeps per VM (Stratus: item + presentation; raw: the parsed object). */
  rows: R[];
  total: number | undefined;
  /** Offset of the next page, undefined on the last one. */
  nextOffset: number | undefined;
  /** The VM ids of the page, to check that nothing is listed twice or skipped. */
  ids: string[];
}

export interface ConsoleBenchAdapter<R> {
  /** PAT -> JWT. */
  signIn(): Promise<void>;
  /** One page of 100 VMs, as rendered. */
  page(offset: number, name?: string): Promise<ConsolePage<R>>;
  /**
   * One tree-node expansion (a page of 100, presented, then dropped). Resolves with the number of
   * items; the naive client resolves with -status instead of throwing when the answer is not 2xx.
   */
  expand(offset: number, name?: string): Promise<number>;
  close(): Promise<void>;
}
