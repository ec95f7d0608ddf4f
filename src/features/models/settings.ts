import { parseToolCallingOverrides, type ToolCallingOverrides } from '../../core/inference/models/capabilities';
import { stratusConfiguration } from '../../platform/settings';

/** `stratus.models.toolCalling`: which model ids take tools, where the guess from the family is wrong. */
export function readToolCallingOverrides(): ToolCallingOverrides {
  return parseToolCallingOverrides(stratusConfiguration('stratus').get<unknown>('models.toolCalling', {}));
}
