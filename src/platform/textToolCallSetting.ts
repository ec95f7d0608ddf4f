import { parseTextToolCallSetting, type TextToolCallSetting } from '../core/inference/chat/textToolCallPolicy';
import { stratusConfiguration } from './settings';

/**
 * `stratus.models.textToolCalls` at user level only (application scope): whether a model's printed
 * text may become tool calls that act on the workspace is not a repository's choice.
 */
export function readTextToolCallSetting(): TextToolCallSetting {
  return parseTextToolCallSetting(stratusConfiguration('stratus').get<unknown>('models.textToolCalls', {}));
}
