import type { z } from 'zod';
import { GatewayError } from './gateway-error';

/** Dotted/indexed path of a zod issue, e.g. `messages[0].content[1].image_url.url`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    return acc ? `${acc}.${String(key)}` : String(key);
  }, '');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describe(issue: z.core.$ZodIssue, where: string, input: unknown): string {
  const field = where || 'body';
  if (issue.code === 'invalid_type') {
    if (valueAt(input, issue.path) === undefined) return `Missing required parameter: '${field}'.`;
    return `Invalid type for '${field}': expected ${issue.expected}.`;
  }
  if (issue.code === 'unrecognized_keys') return `Unrecognized parameter(s) in '${field}': ${issue.keys.join(', ')}.`;
  return `Invalid value for '${field}': ${issue.message}`;
}

/** Parses `input` with `schema`, or throws an invalid_request error naming the first field at fault. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issuePath([...(prefix ? [prefix] : []), ...issue.path]);
  throw GatewayError.invalid(describe(issue, path, input), path || null);
}

/** Where a request carried a parameter. */
export type InputPlace = 'query' | 'path' | 'body';

function describeAt(issue: z.core.$ZodIssue, where: InputPlace, name: string, input: unknown): string {
  if (issue.code === 'unrecognized_keys') return `Unrecognized ${where} parameter(s): ${issue.keys.map((key) => `'${key.slice(0, 64)}'`).join(', ')}.`;
  if (!name) return `Invalid ${where}: ${issue.message}`;
  if (issue.code === 'invalid_type') {
    if (valueAt(input, issue.path) === undefined) return `Missing required ${where} parameter: '${name}'.`;
    return `Invalid type for ${where} parameter '${name}': expected ${issue.expected}.`;
  }
  return `Invalid value for ${where} parameter '${name}': ${issue.message}`;
}

/**
 * Parses a request's query, path parameters or body with `schema`, or throws an invalid_request error
 * whose message says where the parameter was and whose param names it.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: InputPlace): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? '').slice(0, 64) : issuePath(issue.path);
  throw GatewayError.invalid(describeAt(issue, where, name, input), name || where);
}
