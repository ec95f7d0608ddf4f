import { rootCertificates } from 'node:tls';
import type { Dispatcher } from 'undici';
import type { ProxyOptions } from './types';
import type { Undici } from './undici-loader';

export interface DispatcherSettings {
  connectTimeoutMs: number;
  proxy: ProxyOptions;
  ca: readonly string[];
  rejectUnauthorized: boolean;
}

function envProxy(env: NodeJS.ProcessEnv): string | undefined {
  return env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY || undefined;
}

/**
 * One dispatcher per transport, so connections are kept alive and reused across requests.
 * A proxy (explicit, or from the environment) goes through undici's EnvHttpProxyAgent, which also
 * honours NO_PROXY; without one a plain Agent avoids the proxy bookkeeping.
 */
export function createDispatcher(
  undici: Undici,
  settings: DispatcherSettings,
  env: NodeJS.ProcessEnv = process.env,
): Dispatcher {
  // Node's `ca` replaces the bundled roots, so extra CAs are appended to them.
  const ca = settings.ca.length > 0 ? [...rootCertificates, ...settings.ca] : undefined;
  const tls = {
    timeout: settings.connectTimeoutMs,
    rejectUnauthorized: settings.rejectUnauthorized,
    ...(ca ? { ca } : {}),
  };
  const fromEnv = settings.proxy.fromEnv !== false;
  const explicit = settings.proxy.url?.trim() || undefined;
  if (!explicit && !(fromEnv && envProxy(env))) {
    return new undici.Agent({ connect: tls });
  }
  return new undici.EnvHttpProxyAgent({
    // An explicit proxy serves both schemes; '' keeps the environment out when told to.
    httpProxy: explicit ?? (fromEnv ? undefined : ''),
    httpsProxy: explicit ?? (fromEnv ? undefined : ''),
    noProxy: settings.proxy.noProxy ?? (fromEnv ? undefined : ''),
    connect: tls,
    // Through a proxy the connect options above are replaced by the tunnel; these apply instead.
    requestTls: tls,
    proxyTls: tls,
  });
}
