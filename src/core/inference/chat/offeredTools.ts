import { Validator, type Schema } from '@cfworker/json-schema';
import { isRecord } from '../../json';
import type { RawCall } from './textToolFormats';
import type { ToolDefinition } from './types';

// Compiled validators by schema object: the same definitions come back round after round.
const compiled = new WeakMap<object, Validator>();

/** A compiled validator for a tool's JSON Schema (one per schema object). */
export function schemaValidator(schema: object): Validator {
  let validator = compiled.get(schema);
  if (!validator) {
    validator = new Validator(schema as Schema, '2020-12', false);
    compiled.set(schema, validator);
  }
  return validator;
}

/**
 * The tools offered in one request, as the judge of a call read from text: a call counts only if
 * it names one of them and its arguments are an object its schema accepts (as a `tool_calls`
 * call is checked by the agent), so prose that merely looks like a call stays prose.
 */
export class OfferedTools {
  private readonly byName = new Map<string, ToolDefinition>();

  constructor(tools: readonly ToolDefinition[]) {
    for (const tool of tools) this.byName.set(tool.function.name, tool);
  }

  get size(): number {
    return this.byName.size;
  }

  /** The call's arguments as a JSON text when it is acceptable; undefined otherwise. */
  accept(call: RawCall): string | undefined {
    const tool = this.byName.get(call.name);
    if (!tool) return undefined;
    let args = call.args;
    if (typeof args === 'string') {
      const text = args.trim();
      if (text === '') args = {};
      else {
        try {
          args = JSON.parse(text) as unknown;
        } catch {
          return undefined;
        }
      }
    }
    if (!isRecord(args)) return undefined;
    const schema = tool.function.parameters;
    try {
      if (schema && !schemaValidator(schema).validate(args).valid) return undefined;
      return JSON.stringify(args);
    } catch {
      // Arguments nested deeper than the stack allows: no call a tool could take.
      return undefined;
    }
  }
}
