import assert from 'node:assert/strict';
import { mergeUnder } from '../../../src/core/inference/shared/extraBody';
import { overrideFor, parseCapabilityOverrides } from '../../../src/core/inference/models/overrides';
import { effortBody, effortFor, effortsFor, keepsReasoningBetweenRounds, MARKED_REASONING_FAMILY, parseEffortSetting, REASONING_FAMILIES, reasoningFamily } from '../../../src/core/inference/models/reasoningEffort';

describe('reasoning effort: the per-family table', () => {
  it('every row is tested below', () => {
    assert.deepEqual(REASONING_FAMILIES.map((r) => r.family), ['gpt-oss', 'qwen3', 'granite', 'deepseek-r1']);
  });

  it('gpt-oss: reasoning_effort low/medium/high ("off" is its lowest, low); reasoning kept between rounds', () => {
    assert.equal(reasoningFamily('gpt-oss:120b')?.family, 'gpt-oss');
    assert.deepEqual(effortBody('gpt-oss:120b', 'high'), { reasoning_effort: 'high' });
    assert.deepEqual(effortBody('gpt-oss:20b', 'medium'), { reasoning_effort: 'medium' });
    assert.deepEqual(effortBody('gpt-oss:20b', 'off'), { reasoning_effort: 'low' });
    assert.equal(keepsReasoningBetweenRounds('gpt-oss:120b'), true);
    assert.deepEqual(effortsFor('gpt-oss:120b'), ['low', 'medium', 'high']);
  });

  it('qwen3: chat_template_kwargs.enable_thinking, false when "off"; reasoning dropped between rounds', () => {
    assert.equal(reasoningFamily('qwen3:8b')?.family, 'qwen3');
    assert.deepEqual(effortBody('qwen3:8b', 'off'), { chat_template_kwargs: { enable_thinking: false } });
    assert.deepEqual(effortBody('qwen3-coder:30b', 'low'), { chat_template_kwargs: { enable_thinking: true } });
    assert.equal(keepsReasoningBetweenRounds('qwen3:8b'), false);
    assert.equal(reasoningFamily('qwen3-vl:8b'), undefined, 'the vision models are another family');
    assert.deepEqual(effortsFor('qwen3:8b'), ['off', 'high']);
  });

  it('granite: chat_template_kwargs.thinking', () => {
    assert.deepEqual(effortBody('granite3.3:8b', 'high'), { chat_template_kwargs: { thinking: true } });
    assert.deepEqual(effortBody('granite4:tiny', 'off'), { chat_template_kwargs: { thinking: false } });
    assert.equal(keepsReasoningBetweenRounds('granite3.3:8b'), false);
  });

  it('deepseek-r1: always reasons, nothing is sent; reasoning dropped between rounds (the server rejects it back)', () => {
    assert.deepEqual(effortBody('deepseek-r1:70b', 'high'), {});
    assert.equal(keepsReasoningBetweenRounds('deepseek-r1:70b'), false);
    assert.deepEqual(effortsFor('deepseek-r1:70b'), []);
  });

  it('an unknown family gets nothing, and keeps the contract\'s default (reasoning stripped)', () => {
    assert.deepEqual(effortBody('mistral-small3.2:24b', 'high'), {});
    assert.equal(keepsReasoningBetweenRounds('mistral-small3.2:24b'), false);
    assert.deepEqual(effortBody('gpt-oss:120b', undefined), {});
  });

  it('the setting: id or glob, only known efforts, the most specific wins', () => {
    const table = parseEffortSetting({ '*': 'low', 'gpt-oss*': 'medium', 'gpt-oss:120b': 'high', bad: 'extreme' });
    assert.deepEqual(Object.keys(table), ['*', 'gpt-oss*', 'gpt-oss:120b']);
    assert.equal(effortFor(table, 'gpt-oss:120b'), 'high');
    assert.equal(effortFor(table, 'gpt-oss:20b'), 'medium');
    assert.equal(effortFor(table, 'qwen3:8b'), 'low');
    assert.equal(effortFor({}, 'qwen3:8b'), undefined);
  });
});

describe('reasoning effort: the user\'s `reasoning` override (stratus.models.overrides)', () => {
  const marked = (id: string): boolean | undefined =>
    overrideFor(parseCapabilityOverrides({ 'my-reasoner*': { reasoning: true }, 'qwen3-coder:*': { reasoning: false }, 'plain:1b': { contextLength: 4096 } }).table, id).reasoning;

  it('a model of no known family marked as reasoning takes reasoning_effort, and has its reasoning stripped between rounds', () => {
    assert.equal(marked('my-reasoner:70b'), true);
    assert.equal(reasoningFamily('my-reasoner:70b', marked('my-reasoner:70b')), MARKED_REASONING_FAMILY);
    assert.deepEqual(effortBody('my-reasoner:70b', 'high', marked('my-reasoner:70b')), { reasoning_effort: 'high' });
    assert.deepEqual(effortBody('my-reasoner:70b', 'off', true), { reasoning_effort: 'low' });
    assert.deepEqual(effortsFor('my-reasoner:70b', true), ['low', 'medium', 'high']);
    assert.equal(keepsReasoningBetweenRounds('my-reasoner:70b', true), false);
    assert.deepEqual(effortsFor('my-reasoner:70b'), [], 'unmarked, the same id takes nothing');
  });

  it('a model marked as not reasoning takes no effort, whatever its family (Qwen3-Coder has no thinking switch)', () => {
    assert.equal(marked('qwen3-coder:30b'), false);
    assert.deepEqual(effortBody('qwen3-coder:30b', 'off', marked('qwen3-coder:30b')), {});
    assert.deepEqual(effortsFor('qwen3-coder:30b', false), []);
    assert.equal(keepsReasoningBetweenRounds('gpt-oss:120b', false), false, 'nothing to keep from a model that does not reason');
    assert.deepEqual(effortBody('qwen3-coder:30b', 'off'), { chat_template_kwargs: { enable_thinking: false } }, 'unmarked, the table decides');
  });

  it('an override without `reasoning` leaves the table to decide', () => {
    assert.equal(marked('plain:1b'), undefined);
    assert.equal(reasoningFamily('gpt-oss:20b', marked('gpt-oss:20b'))?.family, 'gpt-oss');
    assert.equal(reasoningFamily('plain:1b', marked('plain:1b')), undefined);
  });
});

describe('reasoning effort: merged into the request body', () => {
  it('the effort wins over a model\'s extra fields, the request\'s own fields over both', () => {
    const extra = { chat_template_kwargs: { enable_thinking: true, custom: 1 }, top_k: 20 };
    const body = mergeUnder({ model: 'qwen3:8b', messages: [] }, [extra, effortBody('qwen3:8b', 'off')]);
    assert.deepEqual(body, { model: 'qwen3:8b', messages: [], chat_template_kwargs: { enable_thinking: false, custom: 1 }, top_k: 20 });
  });
});
