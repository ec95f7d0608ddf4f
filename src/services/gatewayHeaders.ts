import { mergeGatewayHeaders } from '../core/http/gatewayHeaders';
import type { GatewayScope, GatewaySecrets } from '../platform/gatewaySecrets';
import { readGatewaySettings } from '../platform/gatewaySettings';

/** The gateway headers of one API for the next request: the setting's, then the secret ones. */
export async function gatewayHeaders(scope: GatewayScope, secrets: GatewaySecrets): Promise<Record<string, string>> {
  return mergeGatewayHeaders(readGatewaySettings().headers[scope].headers, await secrets.get(scope));
}
