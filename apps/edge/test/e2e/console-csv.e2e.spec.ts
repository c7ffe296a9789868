/**
 * The usage CSV export against the running stack: records whose model and client request id begin with a
 * character a spreadsheet runs as a formula come out with a leading quote mark, read back with a strict
 * CSV reader; a refused export parameter is a 400 naming the parameter and its place, before any CSV.
 */
import { personWithPassword, PASSWORD, signInConsole, type ConsoleSignedIn } from './support/console-people';
import { readCsv } from './support/csv-reader';
import { baseUrl, bearer, createTenantWithKey, http, uniqueSlug, type TenantWithKey } from './support/gateway';

jest.setTimeout(60_000);

/** What OWASP's rule prefixes: =, +, -, @, tab and carriage return. */
const LEADERS = ['=', '+', '-', '@', '\t', '\r'];
const DANGEROUS = /^[=+\-@\t\r]/;

describe('the usage CSV export', () => {
  let tenant: TenantWithKey;
  let session: ConsoleSignedIn;
  const headers = () => ({ origin: session.origin, cookie: session.cookie });

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'console-csv' });
    const email = `${uniqueSlug('csv-owner')}@example.com`;
    await personWithPassword(tenant.slug, email, 'owner');
    session = await signInConsole(baseUrl(), { email, password: PASSWORD });
  });

  it('quotes every model and client request id that begins with = + - @ tab or CR', async () => {
    // A header cannot carry tab or CR into a client request id (the edge keeps printable ASCII only): those two ride in the model.
    const sent = LEADERS.map((leader, i) => ({
      model: `${leader}1+1+cmd|' /C calc'!A${i}`,
      requestId: leader.trim() ? `${leader}2+3+HYPERLINK("http://evil.example/${i}")` : `plain-${i}`,
    }));
    for (const { model, requestId } of sent) {
      const answer = await http('POST', `${baseUrl()}/oaic/v1/chat/completions`, {
        headers: { ...bearer(tenant.key), 'x-request-id': requestId },
        json: { model, messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(answer.status).toBe(404);
    }
    let rows: string[][] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      const answer = await http('GET', `${baseUrl()}/console/api/usage/export.csv?of=records`, { headers: headers() });
      expect(answer.status).toBe(200);
      rows = readCsv(answer.text);
      if (rows.length >= sent.length + 1) break;
    }
    const [header, ...records] = rows;
    expect(records).toHaveLength(sent.length);
    const model = header!.indexOf('model');
    const client = header!.indexOf('client_request_id');
    for (const record of records) for (const cell of record) expect(cell).not.toMatch(DANGEROUS);
    const models = records.map((r) => r[model]!);
    const clients = records.map((r) => r[client]!);
    for (const leader of ['=', '+', '-', '@']) {
      expect(models.filter((m) => m.startsWith(`'${leader}1+1+cmd`))).toHaveLength(1);
      expect(clients.filter((c) => c.startsWith(`'${leader}2+3+HYPERLINK`))).toHaveLength(1);
    }
    // Control characters in a model name no catalog entry knows are stored replaced: a tab or CR never leads a cell.
    expect(models.filter((m) => m.startsWith('\uFFFD1+1+cmd'))).toHaveLength(2);

    const summary = await http('GET', `${baseUrl()}/console/api/usage/export.csv?of=summary&by=model`, { headers: headers() });
    const grouped = readCsv(summary.text).slice(1);
    expect(grouped.map((r) => r[0])).toEqual(['(unknown)']);
    expect(grouped[0]![1]).toBe(String(sent.length));
  });

  it('refuses a bad parameter with a 400 naming it and its place, before any CSV', async () => {
    const answer = await http('GET', `${baseUrl()}/console/api/usage/export.csv?of=summary&since=0000-01-01T00:00:00Z`, { headers: headers() });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual({
      error: expect.objectContaining({ code: 'invalid_request', param: 'since', message: expect.stringContaining("query parameter 'since'") }),
    });
    const model = await http('GET', `${baseUrl()}/console/api/usage/export.csv?of=records&model=%00`, { headers: headers() });
    expect(model.status).toBe(400);
    expect(model.body).toEqual({ error: expect.objectContaining({ param: 'model' }) });
    const unknown = await http('GET', `${baseUrl()}/console/api/usage/records?nope=1`, { headers: headers() });
    expect(unknown.body).toEqual({ error: expect.objectContaining({ param: 'nope', message: "Unrecognized query parameter(s): 'nope'." }) });
    const path = await http('GET', `${baseUrl()}/console/api/usage/records/%00`, { headers: headers() });
    expect(path.status).toBe(400);
    expect(path.body).toEqual({ error: expect.objectContaining({ param: 'requestId', message: expect.stringContaining("path parameter 'requestId'") }) });
  });
});
