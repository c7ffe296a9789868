import { BatchInputLine, MAX_JSON_DEPTH, nestsDeeperThan, type BatchEndpoint, type BatchError } from '@gateway/contracts';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { BATCH_ENDPOINT_ROUTES } from './batch-endpoints';

/** A line that passed: its position (1-based), its id and its body. */
export interface ValidLine {
  line: number;
  customId: string;
  body: Record<string, unknown>;
}

/** The largest line accepted: the live chat routes' default body limit (EDGE_RELAYED_BODY_MAX_BYTES). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** The most errors a failed batch lists; the count of the rest is in the last one. */
export const MAX_LISTED_ERRORS = 100;

/**
 * Reads a batch input file as a stream, one line at a time, and checks every line: JSON, the line shape,
 * `method` POST, `url` equal to the batch's endpoint, a body the endpoint's live route accepts (and no
 * `stream`), and a `custom_id` not seen before. The live routes' limits hold first: no line over
 * MAX_LINE_BYTES or nested deeper than MAX_JSON_DEPTH, no custom_id Postgres cannot store. Valid lines go to `accept` in pages as they are read;
 * the errors found are returned (empty: the file is good), with the models the lines name (at most two:
 * one means every line names it). Only the ids seen so far are held.
 */
export async function validateBatchInput(
  input: Readable,
  endpoint: BatchEndpoint,
  accept: (lines: ValidLine[]) => Promise<void>,
  pageSize = 500,
): Promise<{ errors: BatchError[]; total: number; models: string[] }> {
  const schema = BATCH_ENDPOINT_ROUTES[endpoint].body;
  const seen = new Set<string>();
  // The models the lines name (a line without one counts as ''): two are enough to know the batch is mixed.
  const models = new Set<string>();
  const errors: BatchError[] = [];
  let page: ValidLine[] = [];
  let errorCount = 0;
  let lineNo = 0;
  let total = 0;
  const fail = (line: number, code: string, message: string, param: string | null) => {
    errorCount++;
    if (errors.length < MAX_LISTED_ERRORS) errors.push({ code, message: `Line ${line}: ${message}`, param, line });
  };
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    if (text.trim() === '') continue;
    if (text.length > MAX_LINE_BYTES || (text.length * 3 > MAX_LINE_BYTES && Buffer.byteLength(text) > MAX_LINE_BYTES)) {
      fail(lineNo, 'invalid_request', `this line is larger than ${MAX_LINE_BYTES} bytes.`, null);
      continue;
    }
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      fail(lineNo, 'invalid_request', `this line nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels.`, 'body');
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      fail(lineNo, 'invalid_json_line', 'this line is not valid JSON.', null);
      continue;
    }
    const shape = BatchInputLine.safeParse(parsed);
    if (!shape.success) {
      const issue = shape.error.issues[0]!;
      fail(lineNo, 'invalid_request', `${issue.path.join('.') || 'line'}: ${issue.message}.`, String(issue.path[0] ?? '') || null);
      continue;
    }
    const { custom_id: customId, url, body } = shape.data;
    if (url !== endpoint) {
      fail(lineNo, 'mismatched_url', `url "${url.slice(0, 200)}" differs from the batch's endpoint ${endpoint}.`, 'url');
      continue;
    }
    if (body.stream === true) {
      fail(lineNo, 'invalid_request', 'body.stream is not supported in a batch.', 'body.stream');
      continue;
    }
    const checked = schema.safeParse(body);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      fail(lineNo, 'invalid_request', `body.${issue.path.join('.')}: ${issue.message}.`, `body.${issue.path.join('.')}`);
      continue;
    }
    if (seen.has(customId)) {
      fail(lineNo, 'duplicate_custom_id', `custom_id "${customId.slice(0, 200)}" is used by an earlier line.`, 'custom_id');
      continue;
    }
    seen.add(customId);
    if (models.size < 2) models.add(typeof body.model === 'string' ? body.model : '');
    total++;
    if (errorCount > 0) continue;
    page.push({ line: total, customId, body });
    if (page.length >= pageSize) {
      await accept(page);
      page = [];
    }
  }
  if (errorCount > 0) {
    if (errorCount > errors.length)
      errors.push({ code: 'too_many_errors', message: `${errorCount - errors.length} more lines have errors.`, param: null, line: null });
    return { errors, total, models: [...models] };
  }
  if (total === 0) return { errors: [{ code: 'empty_file', message: 'The input file has no request lines.', param: null, line: null }], total, models: [] };
  if (page.length > 0) await accept(page);
  return { errors: [], total, models: [...models] };
}
