import type { TrafficTap } from './types';

/**
 * Where this window's requests went (the "Show Network Activity" view): per host and feature, the
 * request count, bytes sent and received and the last time. It keeps only those: no path, query,
 * header or byte of a body. A host outside the expected ones (the configured inference and console
 * hosts) is reported once, the first time it is contacted.
 */

export interface FeatureTraffic {
  readonly feature: string;
  readonly requests: number;
  readonly sentBytes: number;
  readonly receivedBytes: number;
  /** Unix ms of the last request sent. */
  readonly lastAt: number;
}

export interface HostTraffic {
  readonly host: string;
  /** Whether the host is one of the configured inference and console hosts. */
  readonly expected: boolean;
  readonly requests: number;
  readonly sentBytes: number;
  readonly receivedBytes: number;
  readonly lastAt: number;
  /** By feature, most recent first. */
  readonly features: readonly FeatureTraffic[];
}

export interface NetworkActivityOptions {
  now: () => number;
  /** The hosts requests are meant for (`host[:port]`, lower case); re-read on every request. */
  expectedHosts: () => readonly string[];
  /** Told once per host the first time one outside `expectedHosts` is contacted. */
  onUnexpectedHost?: (host: string) => void;
}

interface Counter {
  requests: number;
  sentBytes: number;
  receivedBytes: number;
  lastAt: number;
}

export class NetworkActivity implements TrafficTap {
  private readonly hosts = new Map<string, Map<string, Counter>>();
  private readonly reported = new Set<string>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: NetworkActivityOptions) {}

  sent(exchange: { host: string; feature: string; bytes: number }): (receivedBytes: number) => void {
    const host = exchange.host.toLowerCase();
    let features = this.hosts.get(host);
    if (!features) {
      features = new Map();
      this.hosts.set(host, features);
    }
    let counter = features.get(exchange.feature);
    if (!counter) {
      counter = { requests: 0, sentBytes: 0, receivedBytes: 0, lastAt: 0 };
      features.set(exchange.feature, counter);
    }
    counter.requests++;
    counter.sentBytes += safeSize(exchange.bytes);
    counter.lastAt = this.options.now();
    if (!this.isExpected(host) && !this.reported.has(host)) {
      this.reported.add(host);
      this.options.onUnexpectedHost?.(host);
    }
    this.changed();
    const target = counter;
    return (bytes) => {
      target.receivedBytes += safeSize(bytes);
      this.changed();
    };
  }

  /** Hosts, most recently contacted first. */
  snapshot(): HostTraffic[] {
    const out: HostTraffic[] = [];
    for (const [host, features] of this.hosts) {
      const list: FeatureTraffic[] = [...features].map(([feature, c]) => ({ feature, ...c }));
      list.sort((a, b) => b.lastAt - a.lastAt || a.feature.localeCompare(b.feature));
      out.push({
        host,
        expected: this.isExpected(host),
        requests: sum(list, 'requests'),
        sentBytes: sum(list, 'sentBytes'),
        receivedBytes: sum(list, 'receivedBytes'),
        lastAt: Math.max(...list.map((f) => f.lastAt)),
        features: list,
      });
    }
    return out.sort((a, b) => b.lastAt - a.lastAt || a.host.localeCompare(b.host));
  }

  /** Called after each change (a request sent, a chunk read); returns the unsubscribe. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private isExpected(host: string): boolean {
    return this.options.expectedHosts().some((h) => h.toLowerCase() === host);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** A byte count the sums can take (a negative, fractional or absurd size counts as 0). */
function safeSize(bytes: number): number {
  return Number.isSafeInteger(bytes) && bytes >= 0 && bytes <= 2 ** 40 ? bytes : 0;
}

function sum(list: readonly FeatureTraffic[], key: 'requests' | 'sentBytes' | 'receivedBytes'): number {
  return list.reduce((total, f) => total + f[key], 0);
}

/** `host[:port]` of a configured base URL, lower case; undefined when it is not a URL. */
export function hostOf(baseUrl: string): string | undefined {
  try {
    return baseUrl.trim() === '' ? undefined : new URL(baseUrl).host.toLowerCase();
  } catch {
    return undefined;
  }
}
