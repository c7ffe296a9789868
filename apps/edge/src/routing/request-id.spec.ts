import { clientRequestIdOf } from './request-id';

describe('clientRequestIdOf', () => {
  it('keeps a printable id of up to 128 characters', () => {
    expect(clientRequestIdOf({ 'x-request-id': 'req-abc' })).toBe('req-abc');
    expect(clientRequestIdOf({ 'x-request-id': 'a b/c:~!' })).toBe('a b/c:~!');
    expect(clientRequestIdOf({ 'x-request-id': 'x'.repeat(128) })).toBe('x'.repeat(128));
  });

  it('ignores what is missing, empty, too long or not printable ASCII', () => {
    expect(clientRequestIdOf({})).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': '' })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': 'x'.repeat(129) })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': 'tab\there' })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': 'nul\u0000' })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': 'café' })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': ['a', 'b'] as unknown as string })).toBeUndefined();
  });
});
