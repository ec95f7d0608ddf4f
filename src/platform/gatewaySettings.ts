import { parseGatewayHeaders, type GatewayHeaders } from '../core/http/gatewayHeaders';
import { timeoutsFromSettings } from '../core/http/timeoutSettings';
import type { TransportTimeouts } from '../core/http/types';
import { parseExtraBody, type ParsedExtraBody } from '../core/inference/shared/extraBody';
import type { GatewayScope } from './gatewaySecrets';
import { stratusConfiguration } from './settings';
import type { BoundedConfiguration } from './settingsPolicy';

/** What a gateway in front of the service needs from settings. */
export interface GatewaySettings {
  readonly headers: Readonly<Record<GatewayScope, GatewayHeaders>>;
  readonly extraBody: ParsedExtraBody;
  readonly inferenceTimeouts: Partial<TransportTimeouts>;
}

/**
 * The user-level value only: the headers settings are `application`-scoped (a gateway header can
 * carry a tenant or a key, and decides what reaches the server), so a cloned repository's
 * `.vscode/settings.json` must not set them, even on a host that would apply a workspace value.
 */
function userLevel(config: BoundedConfiguration, key: string): unknown {
  return config.get<unknown>(key);
}

/** Reads the gateway settings; side-effect free, never cached past a configuration change. */
export function readGatewaySettings(): GatewaySettings {
  const config = stratusConfiguration('stratus');
  return {
    headers: {
      inference: parseGatewayHeaders(userLevel(config, 'inference.headers')),
      console: parseGatewayHeaders(userLevel(config, 'console.headers')),
    },
    // User-level too: extra fields (`n`, `max_tokens`, `best_of`...) decide what a request costs.
    extraBody: parseExtraBody(userLevel(config, 'models.extraBody') ?? {}),
    inferenceTimeouts: timeoutsFromSettings(config.get<unknown>('inference.requestTimeoutSeconds'), config.get<unknown>('inference.idleTimeoutSeconds')),
  };
}

/** The setting behind each scope's headers, for the "Open Settings" action. */
export const HEADERS_SETTING: Readonly<Record<GatewayScope, string>> = {
  inference: 'stratus.inference.headers',
  console: 'stratus.console.headers',
};
