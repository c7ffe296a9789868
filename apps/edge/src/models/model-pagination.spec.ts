import { GatewayError } from '@gateway/contracts';
import { buildModels } from '../testing/fake-accounts';
import { orderModels, paginateModels, toModelRecord } from './model-pagination';

const records = orderModels(buildModels(25)).map(toModelRecord);
const ids = records.map((r) => r.id);

describe('model pagination', () => {
  it('orders newest first', () => {
    expect(ids[0]).toBe('model-024');
    expect(ids.at(-1)).toBe('model-000');
  });

  it('builds the record fields', () => {
    expect(toModelRecord({ id: 'm', displayName: 'M', capability: 'chat', createdAt: '2025-01-02T03:04:05+00:00' })).toEqual({
      id: 'm',
      object: 'model',
      type: 'model',
      display_name: 'M',
      created: 1735787045,
      created_at: '2025-01-02T03:04:05.000Z',
      owned_by: 'gateway',
    });
  });

  it('returns the first page with cursors and has_more', () => {
    const page = paginateModels(records, { limit: 10 }, 20);
    expect(page.data.map((r) => r.id)).toEqual(ids.slice(0, 10));
    expect(page).toMatchObject({ object: 'list', has_more: true, first_id: ids[0], last_id: ids[9] });
  });

  it('uses the default limit when none is given', () => {
    expect(paginateModels(records, {}, 20).data).toHaveLength(20);
    expect(paginateModels(records, {}, 25)).toMatchObject({ has_more: false });
  });

  it('pages forward with after_id and visits every record exactly once', () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const page = paginateModels(records, { limit: 7, after_id: after }, 20);
      seen.push(...page.data.map((r) => r.id));
      if (!page.has_more) break;
      after = page.last_id!;
    }
    expect(seen).toEqual(ids);
  });

  it('pages backward with before_id', () => {
    const page = paginateModels(records, { limit: 5, before_id: ids[12] }, 20);
    expect(page.data.map((r) => r.id)).toEqual(ids.slice(7, 12));
    expect(page.has_more).toBe(true);
    const first = paginateModels(records, { limit: 5, before_id: ids[3] }, 20);
    expect(first.data.map((r) => r.id)).toEqual(ids.slice(0, 3));
    expect(first.has_more).toBe(false);
  });

  it('ends with an empty page after the last record', () => {
    expect(paginateModels(records, { after_id: ids.at(-1) }, 20)).toEqual({ object: 'list', data: [], has_more: false, first_id: null, last_id: null });
  });

  it.each(['after_id', 'before_id'] as const)('rejects an unknown %s naming it', (param) => {
    let error: unknown;
    try {
      paginateModels(records, { [param]: 'nope' }, 20);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'invalid_request', param });
  });
});
