import { modelRefusal, restrictsModels, type KeyContext, type ModelRecord } from '@gateway/contracts';

/** The models of a tenant's list that the key may use under its own and its project's model lists. */
export function usableByKey(key: KeyContext, records: readonly ModelRecord[]): readonly ModelRecord[] {
  if (!restrictsModels(key)) return records;
  return records.filter((record) => modelRefusal(key, record.id) === null);
}
