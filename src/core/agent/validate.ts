import type { OutputUnit, Validator } from '@cfworker/json-schema';
import { schemaValidator } from '../inference/chat/offeredTools';
import type { ToolCall } from '../inference/chat/types';
import { isRecord } from '../json';
import type { AgentTool } from './types';

/** A call as the loop will answer it: a usable id, and either valid input or the error to send back. */
export type PreparedCall =
  | { readonly call: ToolCall; readonly ok: true; readonly input: Record<string, unknown> }
  | { readonly call: ToolCall; readonly ok: false; readonly error: string };

const MAX_LISTED_ERRORS = 4;
/** Name under which a call that had none is kept in the history. */
export const UNNAMED_CALL = 'unnamed_call';
// Summary errors ("Property 'x' does not match schema") add nothing to the leaf errors below them.
const SUMMARY_KEYWORDS = new Set(['properties', 'items', 'allOf', '$ref', 'additionalProperties', 'prefixItems', 'contains', 'then', 'else', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems']);

function describeErrors(errors: readonly OutputUnit[]): string {
  const leaves = errors.filter((e) => !SUMMARY_KEYWORDS.has(e.keyword));
  const chosen = (leaves.length > 0 ? leaves : errors).slice(0, MAX_LISTED_ERRORS);
  return chosen.map((e) => `${e.instanceLocation === '#' ? 'input' : e.instanceLocation.replace(/^#/, 'input')}: ${e.error}`).join('; ');
}

/** Validates tool calls against the offered tools. Schemas compile once (per schema object). */
export class CallValidator {
  private readonly tools = new Map<string, AgentTool>();

  constructor(tools: readonly AgentTool[]) {
    for (const tool of tools) this.tools.set(tool.name, tool);
  }

  private get names(): string {
    return [...this.tools.keys()].join(', ') || '(none)';
  }

  private validatorFor(tool: AgentTool): Validator | undefined {
    // One compile per schema object (VS Code hands the same inputSchema objects turn after turn),
    // shared with the check of calls printed as text.
    return tool.parameters ? schemaValidator(tool.parameters) : undefined;
  }

  /**
   * Gives every call of a round a usable id (a missing one is generated, a repeated one renamed and
   * refused, so each `tool` message answers exactly one call) and checks name and arguments.
   */
  prepare(calls: readonly ToolCall[], round: number): PreparedCall[] {
    const seen = new Set<string>();
    return calls.map((raw, index) => {
      let id = raw.id;
      let duplicate = false;
      if (!id) id = `call_r${round}_${index}`;
      if (seen.has(id)) {
        duplicate = true;
        id = `${id}_dup${index}`;
      }
      seen.add(id);
      // History must stay sendable: a call without a name is echoed under a placeholder name.
      const name = raw.function.name.trim() ? raw.function.name : UNNAMED_CALL;
      const call: ToolCall = { id, type: 'function', function: { name, arguments: raw.function.arguments } };
      const fail = (error: string): PreparedCall => ({ call, ok: false, error });
      if (duplicate) return fail(`Error: this call repeats the id '${raw.id}' of another call in the same message, so it was not run. Give each call its own id.`);
      return this.check(call, fail);
    });
  }

  private check(call: ToolCall, fail: (error: string) => PreparedCall): PreparedCall {
    const name = call.function.name.trim();
    if (name === UNNAMED_CALL) return fail(`Error: the call has no function name, so nothing was run. Call one of these tools by name: ${this.names}.`);
    const tool = this.tools.get(name);
    if (!tool) return fail(`Error: there is no tool named '${name}', so nothing was run. The available tools are: ${this.names}.`);
    const text = call.function.arguments.trim();
    let input: unknown = {};
    if (text) {
      try {
        input = JSON.parse(text);
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'parse error';
        return fail(`Error: the arguments of '${name}' are not valid JSON (${reason}), so it was not run. Send the arguments as one JSON object${tool.parameters ? ` matching this schema: ${JSON.stringify(tool.parameters)}` : ''}.`);
      }
    }
    if (!isRecord(input)) return fail(`Error: the arguments of '${name}' must be a JSON object, not ${Array.isArray(input) ? 'an array' : typeof input}. Nothing was run.`);
    const validator = this.validatorFor(tool);
    if (validator) {
      const result = validator.validate(input);
      if (!result.valid) {
        return fail(`Error: the arguments of '${name}' do not match its schema (${describeErrors(result.errors)}), so it was not run. Correct them; the schema is ${JSON.stringify(tool.parameters)}.`);
      }
    }
    return { call, ok: true, input };
  }
}
