import type { Logger } from '../log';
import type { Disposable } from './types';

/** A minimal typed event source; a throwing listener is logged and never stops the others. */
export class Emitter<T> {
  private readonly listeners = new Set<(event: T) => void>();

  constructor(private readonly logger: Logger) {}

  on(listener: (event: T) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  fire(event: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn(`A session listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
