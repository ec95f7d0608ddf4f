import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ToolRefusal } from './failures';
import type { ToolKit } from './toolKit';

/**
 * A destructive call (delete, power off) goes ahead only when the user says so through MCP
 * elicitation, or when the user's own flag (--allow-destructive-without-confirmation) lets it
 * run unasked. A host that cannot ask gets a refusal that says both ways out; nothing is sent.
 */
export async function confirmDestructive(server: McpServer, kit: ToolKit, question: string, signal: AbortSignal): Promise<void> {
  if (kit.options.allowDestructiveWithoutConfirmation) return;
  if (!server.server.getClientCapabilities()?.elicitation?.form) {
    throw new ToolRefusal(
      'Refused: this host cannot ask the user to confirm a destructive change (it does not support MCP elicitation), so nothing was done. Ask the user to do it in the console or in VS Code, or to restart this server with --allow-destructive-without-confirmation if they accept unconfirmed deletes and power-offs.',
    );
  }
  const answer = await server.server.elicitInput(
    {
      mode: 'form',
      message: kit.redact(question),
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Yes, do it', description: 'Confirm this change to the cloud resource.' } },
        required: ['confirm'],
      },
    },
    { signal },
  );
  if (answer.action === 'accept' && answer.content?.confirm === true) return;
  throw new ToolRefusal(`The user ${answer.action === 'cancel' ? 'dismissed' : 'declined'} the confirmation; nothing was done. Do not retry unless the user asks again.`);
}
