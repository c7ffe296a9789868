import { finishReasonsOf } from './finish-reasons';

describe('finishReasonsOf', () => {
  it('reads each family: oaic choices, msgc stop_reason, genc candidates', () => {
    expect(finishReasonsOf({ choices: [{ finish_reason: 'stop' }, { finish_reason: 'length' }] })).toEqual(['stop', 'length']);
    expect(finishReasonsOf({ type: 'message', stop_reason: 'end_turn' })).toEqual(['end_turn']);
    expect(finishReasonsOf({ candidates: [{ finishReason: 'STOP' }] })).toEqual(['STOP']);
  });

  it('is empty for anything else', () => {
    expect(finishReasonsOf(null)).toEqual([]);
    expect(finishReasonsOf({ data: [] })).toEqual([]);
    expect(finishReasonsOf({ choices: [null, { finish_reason: 3 }] })).toEqual([]);
  });
});
