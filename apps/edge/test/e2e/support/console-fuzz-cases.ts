/**
 * fast-check arbitraries for hostile requests to one console or admin API route: path parameters and query
 * values with NUL, control characters, lone surrogates, times Postgres cannot hold and huge strings,
 * unknown parameters, mutated bodies, missing or wrong cookies, CSRF tokens and admin tokens.
 */
import fc from 'fast-check';
import type { ConsoleCaller, ConsoleFuzzRoute } from './console-fuzz-routes';
import { bodyArbitrary, paramArbitrary, percentEncode, wildString } from './fuzz-cases';

/** What a fuzz case signs in with: each listener's origin, session cookie and CSRF token, and the admin token. */
export interface ConsoleCredentials {
  tenant: { origin: string; cookie: string; csrf: string };
  operator: { origin: string; cookie: string; csrf: string };
  adminToken: string;
}

export interface ConsoleCase {
  method: string;
  path: string;
  headers: string[];
  body: string | undefined;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

const hostileValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: wildString },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      '1969-12-31T23:59:59Z',
      '2026-13-45T99:99:99Z',
      '2026-11-01',
      '2026-11-01T00:00:00',
      '2026-11-01T00:00:00+99:00',
      '-1',
      '0',
      '1e309',
      'NaN',
      '99999999999999999999',
      '0x10',
      'true',
      '',
      ' ',
      '\u0000',
      '%00',
      "-1+1+cmd|' /C calc'!A0",
      '=HYPERLINK("http://evil.example")',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(300, 2_000).map((n) => 'x'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('["0000-01-01 00:00:00","x"]', '["2026-01-01 00:00:00","\\u0000"]', '[1,2]', '{}')
      .map((t) => Buffer.from(t).toString('base64url')),
  },
);

const extraKey = fc.oneof(fc.constantFrom('nope', '__proto__', 'constructor', 'tenantId', 'tenant', 'cursor', 'since', 'a[b]', ''), wildString);

function queryArbitrary(seed: Record<string, string>): fc.Arbitrary<string> {
  const keys = Object.keys(seed);
  const encode = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`.replace(/^%20=/, '=')).join('&');
  const replaced = fc
    .tuple(fc.subarray(keys.length > 0 ? keys : ['since']), fc.array(hostileValue, { minLength: 4, maxLength: 4 }))
    .map(([picked, values]) =>
      encode([...Object.entries(seed).filter(([k]) => !picked.includes(k)), ...picked.map((k, i): [string, string] => [k, values[i % 4]!])]),
    );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(encode(Object.entries(seed))) },
    { weight: 6, arbitrary: replaced },
    {
      weight: 2,
      arbitrary: fc.array(fc.tuple(extraKey, hostileValue), { minLength: 1, maxLength: 3 }).map((extra) => encode([...Object.entries(seed), ...extra])),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%zz', '%00', '&&&', '=', 'a[b]=c', 'limit=1&limit=2', '%ff%fe', 'since=0000-01-01T00:00:00Z&until=0000-01-01T00:00:00Z'),
    },
  );
}

const garbage = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });

function authArbitrary(caller: ConsoleCaller, credentials: ConsoleCredentials): fc.Arbitrary<string[]> {
  if (caller === 'admin') {
    return fc.oneof(
      { weight: 12, arbitrary: fc.constant<string[]>(['authorization', `Bearer ${credentials.adminToken}`]) },
      { weight: 1, arbitrary: fc.constant<string[]>([]) },
      { weight: 1, arbitrary: garbage.map((g) => ['authorization', `Bearer ${g}`]) },
    );
  }
  const side = caller === 'tenant' || caller === 'open-tenant' ? credentials.tenant : credentials.operator;
  const origin = ['origin', side.origin];
  if (caller === 'open-tenant' || caller === 'open-operator') {
    // Never the fuzz's own cookie: a sign-in or sign-out with it would end the session the other cases use.
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(origin) },
      { weight: 2, arbitrary: garbage.map((g) => [...origin, 'cookie', `gw_console=${g}; gw_operator=${g}`]) },
      { weight: 1, arbitrary: fc.constant<string[]>(['origin', 'https://evil.example']) },
      { weight: 1, arbitrary: fc.constant<string[]>([]) },
    );
  }
  const signedIn = [...origin, 'cookie', side.cookie, 'x-csrf-token', side.csrf];
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(signedIn) },
    { weight: 1, arbitrary: fc.constant<string[]>([...origin, 'cookie', side.cookie]) },
    { weight: 1, arbitrary: garbage.map((g) => [...origin, 'cookie', side.cookie, 'x-csrf-token', g]) },
    { weight: 1, arbitrary: garbage.map((g) => [...origin, 'cookie', `${side.cookie.split('=')[0]}=${g}`, 'x-csrf-token', side.csrf]) },
    { weight: 1, arbitrary: fc.constant<string[]>(['origin', 'https://evil.example', 'cookie', side.cookie, 'x-csrf-token', side.csrf]) },
  );
}

const requestId = fc.oneof(
  { weight: 4, arbitrary: fc.constant<string[]>([]) },
  { weight: 1, arbitrary: fc.constantFrom('-2+3+HYPERLINK("http://evil.example")', '=1+1', '@x', 'a'.repeat(500)).map((v) => ['x-request-id', v]) },
);

export function consoleCaseArbitrary(route: ConsoleFuzzRoute, credentials: ConsoleCredentials): fc.Arbitrary<ConsoleCase> {
  const names = Object.keys(route.seed.params);
  const params = fc
    .tuple(...names.map((name) => paramArbitrary(route.seed.params[name]!)))
    .map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]!])));
  // A DELETE on the session path with the fuzz's own cookie would sign it out for every case after it.
  const ownsSession = route.path === '/console/api/session' && (route.caller === 'tenant' || route.caller === 'operator');
  const method = ownsSession
    ? fc.constant<string>(route.method)
    : fc.oneof({ weight: 19, arbitrary: fc.constant<string>(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });
  const body = fc.oneof(
    {
      weight: 6,
      arbitrary: bodyArbitrary(route.seed).map((plan) => ({ text: plan.text, type: 'application/json' as string | undefined })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(bodyArbitrary(route.seed), fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', '', 'application/json; charset=latin1'))
        .map(([plan, type]) => ({ text: plan.text, type: type as string | undefined })),
    },
  );
  return fc
    .tuple(method, params, queryArbitrary(route.seed.query), body, authArbitrary(route.caller, credentials), requestId)
    .map(([m, p, query, load, auth, rid]) => {
      const path = route.path.replace(/:([A-Za-z]+)/g, (_whole, name: string) => p[name] ?? 'x');
      const withBody = m === 'POST' || m === 'PUT' || m === 'PATCH';
      const headers = [...auth, ...rid];
      if (withBody && load.text !== undefined && load.type) headers.push('content-type', load.type);
      const fuzzCase: ConsoleCase = { method: m, path: `${path}${query ? `?${query}` : ''}`, headers, body: withBody ? load.text : undefined };
      return Object.assign(fuzzCase, {
        [fc.toStringMethod]: () => JSON.stringify({ ...fuzzCase, body: fuzzCase.body?.slice(0, 200), path: fuzzCase.path.slice(0, 300) }),
      });
    });
}
