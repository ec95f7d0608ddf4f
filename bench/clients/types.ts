/** What every benchmark client adapter implements (see bench/child.mjs). */
export interface BenchSink {
  /** One content delta. */
  text(text: string): void;
  /** One tool-call argument delta. */
  tool(index: number | string, args: string): void;
  /** Optional: the assembled argument lengths of the tool calls, when the client assembles them. */
  calls(lengths: number[]): void;
}

export interface BenchAdapter {
  run(model: string, sink: BenchSink): Promise<void>;
  close(): Promise<void>;
}
