import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ToolRefusal } from './failures';
import { plainText, type ToolKit } from './toolKit';

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
  const answer = await ask(server, kit, question, signal);
  if (answer.action === 'accept' && answer.content?.confirm === true) return;
  throw new ToolRefusal(`The user ${answer.action === 'cancel' ? 'dismissed' : 'declined'} the confirmation; nothing was done. Do not retry unless the user asks again.`);
}

const CONFIRM_TIMEOUT_MS = 10 * 60_000;

type Answer = Awaited<ReturnType<McpServer['server']['elicitInput']>>;

/**
 * The user's answer. One the SDK cannot read (content against the schema, an unknown action) is no
 * confirmation: a refusal that says so, never an "unexpected error" with a retry hint.
 */
async function ask(server: McpServer, kit: ToolKit, question: string, signal: AbortSignal): Promise<Answer> {
  try {
    return await askOnce(server, kit, question, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number)) {
      throw new ToolRefusal('The user did not answer the confirmation in time; nothing was done. Do not retry unless the user asks again.');
    }
    throw new ToolRefusal('The host\'s answer to the confirmation was not understood, so it counts as no; nothing was done. Ask the user to confirm in a host that supports MCP elicitation, or to do it in the console.');
  }
}

function askOnce(server: McpServer, kit: ToolKit, question: string, signal: AbortSignal): Promise<Answer> {
  return server.server.elicitInput(
    {
      mode: 'form',
      message: plainText(kit, question),
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Yes, do it', description: 'Confirm this change to the cloud resource.' } },
        required: ['confirm'],
      },
    },
    // A person reads and decides: more than the SDK's one minute for a machine's answer.
    { signal, timeout: CONFIRM_TIMEOUT_MS },
  );
}
