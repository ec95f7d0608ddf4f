import * as vscode from 'vscode';
import type { InferenceClient } from '../core/inference/api';
import { createMeteredInferenceClient } from '../core/usage/meteredClient';
import type { Logger } from '../core/log';
import { networkKey, networkOptions, type SharedNetwork } from '../platform/networkOptions';
import type { UsageListener } from '../core/usage/events';
import type { BeforeGeneration } from '../core/usage/guard';
import { SecretKeys, type SecretStore } from '../platform/secrets';
import { textToolCallsEnabled } from '../core/inference/chat/textToolCallPolicy';
import { readTextToolCallSetting } from '../platform/textToolCallSetting';
import { Redactor } from '../core/http/redact';
import { extraBodyLayers } from '../core/inference/shared/extraBody';
import { GatewaySecrets } from '../platform/gatewaySecrets';
import { readGatewaySettings } from '../platform/gatewaySettings';
import { readCapabilityOverrides, reasoningEffortOf, reasoningMark } from '../platform/modelOverrides';
import { effortBody } from '../core/inference/models/reasoningEffort';
import { gatewayHeaders } from './gatewayHeaders';
import { onSettingsChanged, readSettings, type StratusSettings } from '../platform/settings';

/**
 * Owns the inference client built from settings and secret storage. The client is created on
 * first use (creating it loads nothing heavy) and rebuilt when a setting it depends on changes.
 */
export class InferenceConnection implements vscode.Disposable {
  private current: { client: InferenceClient; key: string } | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly gatewaySecrets: GatewaySecrets;
  /** Fires when the settings or the API key change: models must be listed again. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly secrets: SecretStore,
    private readonly logger: Logger,
    private readonly network?: SharedNetwork,
    /** The usage meter's listener and cap check, handed to every client built. */
    private readonly usage?: { onUsage: UsageListener; beforeGeneration?: BeforeGeneration },
  ) {
    this.gatewaySecrets = new GatewaySecrets(secrets, network?.redactor ?? new Redactor());
    this.subscriptions = [
      this.changed,
      onSettingsChanged(() => this.reset()),
      secrets.onDidChange((key) => {
        if (key === SecretKeys.inferenceApiKey) this.reset();
      }),
    ];
  }

  /** Whether a base URL and an API key are both set. */
  async isConfigured(): Promise<{ apiKey: boolean; baseUrl: boolean }> {
    return { apiKey: (await this.secrets.get(SecretKeys.inferenceApiKey)) !== undefined, baseUrl: readSettings().inferenceBaseUrl !== '' };
  }

  client(): InferenceClient {
    const settings = readSettings();
    const key = `${settings.inferenceBaseUrl} ${networkKey(settings)} ${JSON.stringify(readGatewaySettings().inferenceTimeouts)}`;
    if (this.current?.key !== key) {
      void this.current?.client.close();
      this.current = { client: this.build(settings), key };
    }
    return this.current.client;
  }

  private build(settings: StratusSettings): InferenceClient {
    return createMeteredInferenceClient({
      ...networkOptions(settings, this.network),
      baseUrl: settings.inferenceBaseUrl,
      apiKey: () => this.secrets.get(SecretKeys.inferenceApiKey),
      logger: this.logger,
      modelKindOverrides: () => readSettings().modelKindOverrides,
      textToolCalls: (model) => textToolCallsEnabled(readTextToolCallSetting(), model),
      timeouts: readGatewaySettings().inferenceTimeouts,
      capabilityOverrides: readCapabilityOverrides,
      gatewayHeaders: () => gatewayHeaders('inference', this.gatewaySecrets),
      // The effort last: it is more specific than a model's extra fields.
      extraBody: (model) => [...extraBodyLayers(readGatewaySettings().extraBody.table, model), effortBody(model, reasoningEffortOf(model), reasoningMark(model))],
      ...(this.usage ?? {}),
    });
  }

  private reset(): void {
    this.current?.client.models.invalidate();
    this.changed.fire();
  }

  /**
   * A new API key was stored: lists the models again with it now (a listing in flight with the
   * old key is dropped), then tells the listeners (the model provider fires its change event).
   * Resolves after both, whatever order SecretStorage's own change event comes in, or whether it
   * comes at all (the same key stored again). A listing that fails is logged; the provider shows why.
   */
  async reload(): Promise<void> {
    const client = this.client();
    client.models.invalidate();
    try {
      await client.models.refresh();
    } catch (error) {
      this.logger.warn('Listing models with the new API key failed', error);
    }
    this.changed.fire();
  }

  dispose(): void {
    void this.current?.client.close();
    this.current = undefined;
    for (const d of this.subscriptions) d.dispose();
  }
}
