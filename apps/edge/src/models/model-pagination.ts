import { GatewayError, type ModelList, type ModelListQuery, type ModelRecord, type VisibleModel } from '@gateway/contracts';

/** Newest first, ties by id: a stable order so cursors mean the same thing on every page. */
export function orderModels(models: readonly VisibleModel[]): VisibleModel[] {
  return [...models].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function toModelRecord(model: VisibleModel): ModelRecord {
  const createdMs = Date.parse(model.createdAt);
  return {
    id: model.id,
    object: 'model',
    type: 'model',
    display_name: model.displayName,
    created: Math.floor(createdMs / 1000),
    created_at: new Date(createdMs).toISOString(),
    owned_by: 'gateway',
  };
}

function indexOfCursor(records: readonly ModelRecord[], id: string, param: 'after_id' | 'before_id'): number {
  const index = records.findIndex((r) => r.id === id);
  if (index === -1) throw GatewayError.invalid(`Unknown model id in '${param}': ${id}.`, param);
  return index;
}

/**
 * One page of an ordered model list. `after_id` pages forward, `before_id` backward; `has_more` says
 * whether more records lie beyond the page in the paging direction, as the official SDKs expect.
 */
export function paginateModels(records: readonly ModelRecord[], query: ModelListQuery, defaultLimit: number): ModelList {
  const limit = query.limit ?? defaultLimit;
  let start: number;
  let end: number;
  let hasMore: boolean;
  if (query.before_id !== undefined) {
    end = indexOfCursor(records, query.before_id, 'before_id');
    start = Math.max(0, end - limit);
    hasMore = start > 0;
  } else {
    start = query.after_id !== undefined ? indexOfCursor(records, query.after_id, 'after_id') + 1 : 0;
    end = Math.min(records.length, start + limit);
    hasMore = end < records.length;
  }
  const data = records.slice(start, end);
  return { object: 'list', data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}
