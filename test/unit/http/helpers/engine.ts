import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import type { FetchLike } from '../../../../src/core/http/types';

/**
 * A fetch engine over npm undici with its own dispatcher: what a plain-Node caller injects to get
 * a proxy or extra CAs (in VS Code the extension host's global fetch carries the user's network).
 */
export function engineWith(dispatcher: Dispatcher): FetchLike {
  return (url, init) => undiciFetch(url, { ...(init as object), dispatcher } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
}

export function proxiedEngine(proxyUrl: string, ca?: string): FetchLike {
  return engineWith(new ProxyAgent({ uri: proxyUrl, ...(ca ? { requestTls: { ca } } : {}) }));
}

export function engineTrusting(ca: string, connectTimeoutMs?: number): FetchLike {
  return engineWith(new Agent({ connect: { ca, ...(connectTimeoutMs ? { timeout: connectTimeoutMs } : {}) } }));
}

export function engineWithConnectTimeout(ms: number): FetchLike {
  return engineWith(new Agent({ connect: { timeout: ms } }));
}
