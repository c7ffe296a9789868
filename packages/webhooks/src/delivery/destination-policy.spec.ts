import type { LookupAddress } from 'node:dns';
import { addressProblem, callbackUrlProblem, DestinationRefused, guardedLookup } from './destination-policy';

const STRICT = { allowPrivate: false };
const DEV = { allowPrivate: true };

function fakeResolver(addresses: LookupAddress[]) {
  return ((_host: string, _options: unknown, callback: (error: Error | null, addresses: LookupAddress[]) => void) => callback(null, addresses)) as never;
}

function lookupWith(addresses: LookupAddress[]): Promise<string> {
  const lookup = guardedLookup(STRICT, fakeResolver(addresses));
  return new Promise((resolve, reject) => lookup('hooks.example.com', {}, (error, address) => (error ? reject(error) : resolve(address as string))));
}

describe('webhook destinations', () => {
  it('accepts a public HTTPS URL and refuses private, loopback and plain HTTP ones at creation', () => {
    expect(callbackUrlProblem('https://hooks.example.com/music', STRICT)).toBeNull();
    expect(callbackUrlProblem('http://hooks.example.com/music', STRICT)).toMatch(/http/);
    expect(callbackUrlProblem('https://127.0.0.1/hook', STRICT)).toMatch(/loopback/);
    expect(callbackUrlProblem('https://10.1.2.3/hook', STRICT)).toMatch(/private/);
    expect(callbackUrlProblem('https://169.254.169.254/latest', STRICT)).toMatch(/metadata/);
  });

  it('lets loopback and HTTP through in development, but never private ranges', () => {
    expect(callbackUrlProblem('http://127.0.0.1:9000/hook', DEV)).toBeNull();
    expect(callbackUrlProblem('http://localhost:9000/hook', DEV)).toBeNull();
    expect(callbackUrlProblem('http://10.1.2.3/hook', DEV)).toMatch(/private/);
    expect(callbackUrlProblem('http://user:pw@127.0.0.1/hook', DEV)).toMatch(/credentials/);
    expect(callbackUrlProblem('ftp://127.0.0.1/hook', DEV)).toMatch(/ftp/);
  });

  it('judges resolved addresses', () => {
    expect(addressProblem('93.184.216.34', STRICT)).toBeNull();
    expect(addressProblem('10.0.0.5', STRICT)).toMatch(/private/);
    expect(addressProblem('::ffff:192.168.1.1', STRICT)).toMatch(/private/);
    expect(addressProblem('127.0.0.1', STRICT)).toMatch(/loopback/);
    expect(addressProblem('127.0.0.1', DEV)).toBeNull();
    expect(addressProblem('10.0.0.5', DEV)).toMatch(/private/);
  });

  it('refuses at connect time a public name that resolves to a private address', async () => {
    await expect(lookupWith([{ address: '93.184.216.34', family: 4 }])).resolves.toBe('93.184.216.34');
    await expect(lookupWith([{ address: '10.0.0.5', family: 4 }])).rejects.toBeInstanceOf(DestinationRefused);
    await expect(
      lookupWith([
        { address: '93.184.216.34', family: 4 },
        { address: '172.16.0.1', family: 4 },
      ]),
    ).rejects.toThrow(/private/);
  });
});
