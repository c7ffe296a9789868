import { ConsoleErrorBody, CSRF_HEADER } from '@gateway/contracts/console';
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

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls the console API of the listener that served this page; the session rides in its httpOnly cookie. */
export async function api<S extends z.ZodType>(method: Method, path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[CSRF_HEADER] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`/console/api${path}`, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
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
