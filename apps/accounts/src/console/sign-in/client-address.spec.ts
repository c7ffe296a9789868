import { signInAddressOf } from './client-address';

describe('signInAddressOf', () => {
  it('keeps an IPv4 address and unwraps an IPv4-mapped one', () => {
    expect(signInAddressOf('203.0.113.7')).toBe('203.0.113.7');
    expect(signInAddressOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 addresses by their /64, however they are spelled', () => {
    const spellings = ['2001:db8:0:1::1', '2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:DB8:0:1:0:0:0:2'];
    expect(new Set(spellings.map(signInAddressOf))).toEqual(new Set(['2001:db8:0:1::/64']));
    expect(signInAddressOf('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(signInAddressOf('::1')).toBe('0:0:0:0::/64');
  });

  it('puts a missing or malformed address under one name', () => {
    expect(signInAddressOf(null)).toBe('unknown');
    expect(signInAddressOf('not an address')).toBe('unknown');
  });
});
