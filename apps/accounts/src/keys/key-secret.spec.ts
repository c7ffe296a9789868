import { KEY_PREFIX } from '@gateway/contracts';
import { createHash } from 'node:crypto';
import { generateKey, hashKey, issueKey, KEY_BODY_LENGTH, maskKey } from './key-secret';

describe('key secrets', () => {
  it.each([
    ['payg', /^sk-[0-9A-Za-z]{48}$/],
    ['plan', /^sk-plan-[0-9A-Za-z]{48}$/],
    ['custom', /^sk-custom-[0-9A-Za-z]{48}$/],
  ] as const)('generates a %s key with its prefix and 48 base62 characters', (kind, pattern) => {
    expect(generateKey(kind)).toMatch(pattern);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateKey('payg')));
    expect(keys.size).toBe(500);
  });

  it('uses the whole base62 alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateKey('payg').slice(3)).join(''));
    expect(seen.size).toBe(62);
  });

  it('hashes with sha256 hex', () => {
    expect(hashKey('sk-abc')).toBe(createHash('sha256').update('sk-abc').digest('hex'));
    expect(hashKey('sk-abc')).not.toBe(hashKey('sk-abd'));
  });

  it('masks as prefix, first four, ellipsis, last four', () => {
    const body = 'Ab3d' + 'q'.repeat(KEY_BODY_LENGTH - 8) + 'x9Z2';
    expect(maskKey(KEY_PREFIX.plan + body, 'plan')).toBe('sk-plan-Ab3d…x9Z2');
    expect(maskKey(KEY_PREFIX.custom + body, 'custom')).toBe('sk-custom-Ab3d…x9Z2');
    expect(maskKey(KEY_PREFIX.payg + body, 'payg')).toBe('sk-Ab3d…x9Z2');
  });

  it('issues a key whose hash and mask belong to it', () => {
    const issued = issueKey('custom');
    expect(issued.hash).toBe(hashKey(issued.plain));
    expect(issued.masked).toBe(`sk-custom-${issued.plain.slice(10, 14)}…${issued.plain.slice(-4)}`);
    expect(issued.masked).not.toContain(issued.plain.slice(14, -4));
  });
});
