/**
 * The tool invocations running now that were read from a model's text (not sent as `tool_calls`),
 * by tool name and input: the invoker marks one while it runs it, and the tool's confirmation
 * (VS Code calls it with the same name and input, through its own round trip) asks whether the
 * invocation being prepared is one, to ask the user whatever an auto-approve rule says.
 */
export class TextCallRegistry {
  private readonly running = new Map<string, number>();

  private static key(name: string, input: unknown): string {
    return `${name}\u0000${JSON.stringify(input) ?? ''}`;
  }

  /** `name(input)`, read from text, runs until the returned function is called (once; more calls do nothing). */
  expect(name: string, input: unknown): () => void {
    const key = TextCallRegistry.key(name, input);
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    };
  }

  /** Whether an invocation of `name` with `input` read from text is running (a same native call then asks too: more, never less). */
  isFromText(name: string, input: unknown): boolean {
    return this.running.has(TextCallRegistry.key(name, input));
  }
}
