import { GatewayError, MAX_JSON_DEPTH, nestsDeeperThan } from '@gateway/contracts';
import type { FastifyInstance } from 'fastify';

export { MAX_JSON_DEPTH, nestsDeeperThan } from '@gateway/contracts';

/** Text that may spell a poisoning key, escapes included; most bodies skip the walk below. */
const MAY_POISON = /__proto__|constructor|\\u/;

/**
 * The first forbidden key of a parsed body: `__proto__`, which JSON.parse keeps as an own property that a
 * later merge or spread turns into a prototype, and `constructor.prototype`. Depth is already bounded.
 */
export function forbiddenKeyOf(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = forbiddenKeyOf(item);
      if (found) return found;
    }
    return null;
  }
  if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return '__proto__';
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const child = record[key];
    if (key === 'constructor' && child !== null && typeof child === 'object' && Object.prototype.hasOwnProperty.call(child, 'prototype'))
      return 'constructor.prototype';
    const found = forbiddenKeyOf(child);
    if (found) return found;
  }
  return null;
}

/** Parses a JSON body, every refusal a 400 that says what is wrong. */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) throw GatewayError.invalid('The request body is empty: expected a JSON object.');
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw GatewayError.invalid(`The request body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw GatewayError.invalid(`The request body is not valid JSON: ${(error as Error).message}.`);
  }
  const forbidden = MAY_POISON.test(text) ? forbiddenKeyOf(value) : null;
  if (forbidden) throw GatewayError.invalid(`The request body contains a forbidden key ${forbidden}.`);
  return value;
}

/** application/json bodies through parseJsonBody, in place of Fastify's parser. */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as GatewayError, undefined);
    }
  });
}
