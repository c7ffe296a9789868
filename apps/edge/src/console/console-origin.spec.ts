import { foreignOriginRefusal, type OriginFacts } from './console-origin';

const facts = (over: Partial<OriginFacts>): OriginFacts => ({
  method: 'POST',
  origin: 'https://gw.example.com',
  fetchSite: undefined,
  ownOrigin: 'https://gw.example.com',
  allowedOrigins: [],
  ...over,
});

describe('foreignOriginRefusal', () => {
  it('lets the own origin through, whatever the case of its letters', () => {
    expect(foreignOriginRefusal(facts({}))).toBeNull();
    expect(foreignOriginRefusal(facts({ origin: 'https://GW.example.com' }))).toBeNull();
  });

  it('refuses a foreign origin on reads and writes alike', () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      expect(foreignOriginRefusal(facts({ method, origin: 'https://evil.example' }))).toMatchObject({ code: 'permission_denied', param: 'origin' });
    }
    expect(foreignOriginRefusal(facts({ origin: 'http://gw.example.com' }))).not.toBeNull();
    expect(foreignOriginRefusal(facts({ origin: 'null' }))).not.toBeNull();
  });

  it('takes the configured extra origins', () => {
    expect(foreignOriginRefusal(facts({ origin: 'https://console.example.com', allowedOrigins: ['https://console.example.com'] }))).toBeNull();
  });

  it('needs an Origin on state-changing calls only', () => {
    expect(foreignOriginRefusal(facts({ method: 'GET', origin: undefined }))).toBeNull();
    expect(foreignOriginRefusal(facts({ method: 'POST', origin: undefined }))).toMatchObject({ param: 'origin' });
  });

  it('refuses a cross-site fetch even without an Origin', () => {
    expect(foreignOriginRefusal(facts({ method: 'GET', origin: undefined, fetchSite: 'cross-site' }))).not.toBeNull();
    expect(foreignOriginRefusal(facts({ method: 'GET', origin: undefined, fetchSite: 'same-origin' }))).toBeNull();
  });
});
