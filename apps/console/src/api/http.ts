import { ConsoleErrorBody, CSRF_HEADER, fillRoutePath, type ConsoleCallInput, type ConsoleCallReply, type ConsoleRoute } from '@gateway/contracts/console';
import type { z } from 'zod';

/** A refusal from the console API, with the words the server chose (they say what to do). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;

/** Kept from the session answer: sent back on every state-changing call. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** A route's input: required when some part of it is. */
type InputArgs<R extends ConsoleRoute> = object extends ConsoleCallInput<R> ? [input?: ConsoleCallInput<R>] : [input: ConsoleCallInput<R>];

/** `?a=1&b=x`, leaving out what is unset. */
export function searchOf(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Calls a route of the console table on the listener that served this page: its path parameters filled
 * from the input, the rest sent as its body or its query, the answer parsed with its reply schema.
 */
export function call<R extends ConsoleRoute>(route: R, ...[input]: InputArgs<R>): Promise<ConsoleCallReply<R>> {
  const { path, rest: fields } = fillRoutePath(route.path, { ...(input as object | undefined) });
  if (route.body) return send<R['reply']>(route.method, path, route.reply, fields);
  return send<R['reply']>(route.method, route.query ? `${path}${searchOf(fields)}` : path, route.reply);
}

async function send<S extends z.ZodType>(method: ConsoleRoute['method'], path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[CSRF_HEADER] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'network', 'The gateway did not answer: check your connection and try again.', null);
  }
  const text = await response.text();
  const json: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const error = ConsoleErrorBody.safeParse(json);
    if (error.success) throw new ApiError(response.status, error.data.error.code, error.data.error.message, error.data.error.param ?? null);
    throw new ApiError(response.status, 'http_error', `The gateway answered ${response.status}: try again, or ask your operator.`, null);
  }
  if (response.status === 204) return undefined as z.infer<S>;
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError(502, 'bad_response', 'The gateway answered something this console does not understand: reload the page.', null);
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
