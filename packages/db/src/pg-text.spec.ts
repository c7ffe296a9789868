import { isRecordError, pgText, pgTextFields, pgJson } from './pg-text';

describe('pgText', () => {
  it('drops NUL and replaces lone surrogates, keeping pairs and everything else', () => {
    expect(pgText('sandbox-gemini\u0000')).toBe('sandbox-gemini');
    expect(pgText('\u0000a\u0000b\u0000')).toBe('ab');
    expect(pgText('x\uD800y')).toBe('x\uFFFDy');
    expect(pgText('x\uDC00')).toBe('x\uFFFD');
    expect(pgText('\uD83D\uDE00 ok é')).toBe('\uD83D\uDE00 ok é');
    expect(pgText('plain')).toBe('plain');
  });

  it('passes null and undefined through as null', () => {
    expect(pgText(null)).toBeNull();
    expect(pgText(undefined)).toBeNull();
  });
});

describe('pgTextFields', () => {
  it('cleans every string field of a record and leaves the rest alone', () => {
    const settlement = { action: 'settle', micros: '1' };
    const record = { modelId: 'm\u0000', channelId: null, promptTokens: 3, note: undefined, settlement };
    const cleaned = pgTextFields(record);
    expect(cleaned).toEqual({ modelId: 'm', channelId: null, promptTokens: 3, note: undefined, settlement });
    expect(cleaned.settlement).toBe(settlement);
    expect(record.modelId).toBe('m\u0000');
  });
});

describe('isRecordError', () => {
  it('is true for data exceptions and constraint violations only', () => {
    expect(isRecordError({ code: '22P02' })).toBe(true);
    expect(isRecordError({ code: '22021' })).toBe(true);
    expect(isRecordError({ code: '23505' })).toBe(true);
    expect(isRecordError({ code: '08006' })).toBe(false);
    expect(isRecordError({ code: '57P01' })).toBe(false);
    expect(isRecordError(new Error('connect ECONNREFUSED'))).toBe(false);
    expect(isRecordError(null)).toBe(false);
  });
});

describe('pgJson', () => {
  it('cleans every string and key of a JSON value, leaving the rest as it is', () => {
    const value = { 'a\u0000': ['x\u0000y', { t: '\ud83d', ok: '\ud83d\ude00' }], n: 1, b: true, z: null };
    expect(pgJson(value)).toEqual({ a: ['xy', { t: '\uFFFD', ok: '\ud83d\ude00' }], n: 1, b: true, z: null });
  });
});
