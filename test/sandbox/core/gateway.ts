import type { IncomingHttpHeaders } from 'node:http';

/**
 * Gateway mode: the sandbox stands behind a company gateway that requires its own header (e.g.
 * `X-Gateway-Key`) on every API request and rejects one without it: 401 when it is missing, 403
 * when its value is wrong, each with the area's error envelope. The request log records what was
 * received (headers and bodies), so tests assert what a client sent.
 */
export interface GatewaySpec {
  /** Header name, any case. */
  header: string;
  /** The value the gateway accepts. */
  value: string;
}

export interface GatewayRefusal {
  status: 401 | 403;
  message: string;
}

export class GatewayMode {
  private spec: GatewaySpec | null;

  constructor(private readonly initial: GatewaySpec | null) {
    this.spec = initial ? { ...initial } : null;
  }

  set(spec: GatewaySpec | null): void {
    if (spec !== null && (!/^[A-Za-z0-9-]{1,64}$/.test(spec.header) || spec.value === '')) throw new Error('gateway needs a header name (letters, digits, -) and a non-empty value');
    this.spec = spec ? { ...spec } : null;
  }

  /** Back to the start option. */
  reset(): void {
    this.spec = this.initial ? { ...this.initial } : null;
  }

  snapshot(): GatewaySpec | null {
    return this.spec ? { ...this.spec } : null;
  }

  /** Why the gateway turns this request away, or undefined when it lets it through. */
  check(headers: IncomingHttpHeaders): GatewayRefusal | undefined {
    if (!this.spec) return undefined;
    const received = headers[this.spec.header.toLowerCase()];
    const value = Array.isArray(received) ? received.join(', ') : received;
    if (value === undefined) return { status: 401, message: `The gateway requires the ${this.spec.header} header (sandbox gateway mode).` };
    if (value !== this.spec.value) return { status: 403, message: `The gateway refused the ${this.spec.header} header (sandbox gateway mode).` };
    return undefined;
  }
}
