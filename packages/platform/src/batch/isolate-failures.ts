/** A record the writer refused on its own, with the refusal. */
export interface IsolatedFailure<T> {
  item: T;
  error: Error;
}

/**
 * Writes `items` in one call when it can; when the call fails because of a record (as `isRecordError`
 * judges), bisects so that every record that can be written is, and only the ones refused alone come
 * back. A failure that is not a record's (the database unreachable) is thrown as it is: the whole batch
 * then waits for a retry rather than being blamed on its records. `write` must be idempotent: a half
 * that failed is written again in smaller parts.
 */
export async function writeIsolatingFailures<T>(
  items: readonly T[],
  write: (items: readonly T[]) => Promise<unknown>,
  isRecordError: (error: unknown) => boolean,
): Promise<IsolatedFailure<T>[]> {
  if (items.length === 0) return [];
  try {
    await write(items);
    return [];
  } catch (error) {
    if (!isRecordError(error)) throw error;
    if (items.length === 1) return [{ item: items[0]!, error: error instanceof Error ? error : new Error(String(error)) }];
  }
  const half = Math.ceil(items.length / 2);
  const first = await writeIsolatingFailures(items.slice(0, half), write, isRecordError);
  const second = await writeIsolatingFailures(items.slice(half), write, isRecordError);
  return [...first, ...second];
}
