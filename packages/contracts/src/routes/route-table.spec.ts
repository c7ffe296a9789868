import { SUBJECTS } from '../nats/subjects';
import { buildOpenApiDocument } from './openapi';
import { buildRouteIndex } from './route-index';
import { BUILT_ROUTES } from './route-table';

/** Every fixed subject of SUBJECTS (the functions build per-service ones). */
function subjectsOf(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (typeof node !== 'object' || node === null) return [];
  return Object.values(node).flatMap(subjectsOf);
}

const SUBJECT_SET = new Set(subjectsOf(SUBJECTS));
const RELAYED = BUILT_ROUTES.filter((route) => route.relay);

describe('the route table as the map', () => {
  it('relays to subjects of SUBJECTS only', () => {
    expect(RELAYED.length).toBeGreaterThan(50);
    for (const route of RELAYED) expect([route.id, SUBJECT_SET.has(route.relay!.subject)]).toEqual([route.id, true]);
  });

  it('relays only path parameters the path names', () => {
    for (const route of RELAYED) {
      for (const name of Object.keys(route.relay!.params ?? {})) expect([route.id, route.path.includes(`{${name}}`)]).toEqual([route.id, true]);
    }
  });

  it('streams exactly where the route answers events: always without a JSON answer, on request with one', () => {
    for (const route of RELAYED) {
      const { json, events } = route.reply!;
      const expected = events === undefined ? 'json' : json === undefined ? 'sse' : 'json-or-sse';
      expect([route.id, route.relay!.reply]).toEqual([route.id, expected]);
    }
  });

  it('leaves at most 15 routes to handlers of their own at the edge', () => {
    const handled = new Set(BUILT_ROUTES.filter((route) => !route.relay).map((route) => route.id));
    expect(handled.size).toBeGreaterThan(0);
    expect(handled.size).toBeLessThanOrEqual(15);
  });

  it('keeps subjects out of the public OpenAPI document and the route index', () => {
    const published = JSON.stringify([buildOpenApiDocument(), buildRouteIndex()]);
    for (const route of RELAYED) expect([route.id, published.includes(route.relay!.subject)]).toEqual([route.id, false]);
  });
});

describe('SUBJECTS', () => {
  it('defines every subject once', () => {
    const all = subjectsOf(SUBJECTS);
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((subject, i) => all.indexOf(subject) !== i)).toEqual([]);
  });
});
