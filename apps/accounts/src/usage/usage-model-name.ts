/**
 * A usage record's model as a client named it: a name no catalog entry knows is kept for the record, but
 * bounded and printable (control characters and lone surrogates become U+FFFD); summaries group every
 * such name as UNKNOWN_MODEL_GROUP (usage-summary.sql.ts, latency-summary.sql.ts).
 */
export const USAGE_MODEL_MAX_LENGTH = 128;
export const UNKNOWN_MODEL_GROUP = '(unknown)';

const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function usageModelName(name: string): string {
  let bounded = name.slice(0, USAGE_MODEL_MAX_LENGTH);
  // A cut between the halves of a surrogate pair leaves a lone one: it is replaced with the rest.
  bounded = bounded.replace(UNPRINTABLE, '\uFFFD');
  return bounded;
}

/** SQL that names the group of a record's model column: the model, or UNKNOWN_MODEL_GROUP when no catalog entry has its id. */
export function modelGroupSql(column: string): string {
  return `CASE WHEN ${column} = '' OR EXISTS (SELECT 1 FROM models m WHERE m.id = ${column}) THEN ${column} ELSE '${UNKNOWN_MODEL_GROUP}' END`;
}
