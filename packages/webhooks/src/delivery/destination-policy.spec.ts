import type { LookupAddress } from 'node:dns';
import { hostname, networkInterfaces } from 'node:os';
import { addressProblem, callbackUrlProblem, DestinationRefused, guardedLookup } from './destination-policy';
import { destinationSettingsOf, WebhooksEnv } from '../webhooks-env';

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

  describe("the gateway's own listeners", () => {
    const OWN = new Set([8080, 8081, 9464]);
    const DEV_OWN = { allowPrivate: true, ownPorts: OWN };
    const STRICT_OWN = { allowPrivate: false, ownPorts: OWN };
    const interfaceAddresses = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((entry) => entry.address);

    it('refuses the admin API on loopback as a callback even with private addresses allowed', () => {
      expect(callbackUrlProblem('http://127.0.0.1:8081/admin/keys/k1/revoke', DEV)).toBeNull();
      expect(callbackUrlProblem('http://127.0.0.1:8081/admin/keys/k1/revoke', DEV_OWN)).toMatch(/gateway's own listeners \(port 8081/);
    });

    it('refuses every own port on every local spelling, and leaves other local ports to the development flag', () => {
      const hosts = ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST.', 'api.localhost', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '[::]', hostname()];
      for (const host of hosts) {
        for (const port of OWN) {
          expect(callbackUrlProblem(`http://${host}:${port}/hook`, DEV_OWN)).toMatch(/own listeners/);
          expect(callbackUrlProblem(`https://${host}:${port}/hook`, STRICT_OWN)).not.toBeNull();
        }
      }
      for (const address of interfaceAddresses) {
        const host = address.includes(':') ? `[${address.replace(/%.*$/, '')}]` : address;
        expect(callbackUrlProblem(`http://${host}:8080/hook`, DEV_OWN)).toMatch(/own listeners|not a valid/);
      }
      expect(callbackUrlProblem('http://127.0.0.1:9000/hook', DEV_OWN)).toBeNull();
      expect(callbackUrlProblem('https://hooks.example.com:8081/hook', STRICT_OWN)).toBeNull();
    });

    it('counts a URL without a port as its scheme default', () => {
      const web = { allowPrivate: true, ownPorts: new Set([80]) };
      expect(callbackUrlProblem('http://localhost/hook', web)).toMatch(/port 80/);
      expect(callbackUrlProblem('https://localhost/hook', web)).toBeNull();
    });

    it('refuses at connect time a name that resolves to this machine on an own port', async () => {
      const lookup = (port: number, addresses: LookupAddress[]) =>
        new Promise((resolve, reject) =>
          guardedLookup(DEV_OWN, fakeResolver(addresses), port)('hooks.example.com', {}, (error, address) => (error ? reject(error) : resolve(address))),
        );
      await expect(lookup(8081, [{ address: '127.0.0.1', family: 4 }])).rejects.toThrow(/own listeners/);
      await expect(lookup(8080, [{ address: '::1', family: 6 }])).rejects.toBeInstanceOf(DestinationRefused);
      await expect(lookup(9000, [{ address: '127.0.0.1', family: 4 }])).resolves.toBe('127.0.0.1');
      expect(addressProblem('0.0.0.0', DEV_OWN, 8081)).toMatch(/own listeners/);
      expect(addressProblem('127.0.0.1', DEV_OWN, 9000)).toBeNull();
    });

    it('takes its ports from GATEWAY_LISTENER_PORTS, the public base URL and the metrics port', () => {
      const env = WebhooksEnv.parse({ WEBHOOK_ALLOW_PRIVATE: 'true', GATEWAY_LISTENER_PORTS: '18080, 18081' });
      const settings = destinationSettingsOf({ ...env, PUBLIC_BASE_URL: 'http://127.0.0.1:28080', METRICS_PORT: 29464 });
      expect([...settings.ownPorts!].sort()).toEqual([18080, 18081, 28080, 29464]);
      expect([...destinationSettingsOf(WebhooksEnv.parse({})).ownPorts!].sort()).toEqual([8080, 8081]);
      expect(WebhooksEnv.safeParse({ GATEWAY_LISTENER_PORTS: '80;81' }).success).toBe(false);
    });
  });
});
