/** Raw-HTTP helpers of the media e2e specs: create a task on a route, poll its query route until it ends. */
import { setTimeout as sleep } from 'node:timers/promises';
import { baseUrl, bearer, http, type HttpResult } from './gateway';

export const PUBLIC_IMAGE = 'https://images.example.com/first.png';
export const PUBLIC_IMAGE_2 = 'https://images.example.com/last.png';

export function post(key: string, path: string, body: unknown): Promise<HttpResult> {
  return http('POST', `${baseUrl()}${path}`, { headers: bearer(key), json: body });
}

export function get(key: string, path: string): Promise<HttpResult> {
  return http('GET', `${baseUrl()}${path}`, { headers: bearer(key) });
}

/** Polls `path` until `ended` says the answer is terminal; every answer seen is returned, the last one terminal. */
export async function pollTask(key: string, path: string, ended: (body: Record<string, unknown>) => boolean, timeoutMs = 20_000): Promise<HttpResult[]> {
  const seen: HttpResult[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await get(key, path);
    seen.push(answer);
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text}`);
    if (ended(answer.body as Record<string, unknown>)) return seen;
    if (Date.now() > deadline) throw new Error(`GET ${path} never ended: ${answer.text}`);
    await sleep(150);
  }
}

export const dscEnded = (body: Record<string, unknown>) => ['SUCCEEDED', 'FAILED', 'CANCELED'].includes((body.output as { task_status: string }).task_status);
export const nativeEnded = (body: Record<string, unknown>) => ['succeed', 'failed'].includes((body.data as { task_status: string }).task_status);

/** Fetches a result link with no API key at all, as a vendor's temporary URL is fetched. */
export async function fetchLink(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

export const isMp4 = (bytes: Buffer) => bytes.toString('ascii', 4, 8) === 'ftyp';
export const isPng = (bytes: Buffer) => bytes.subarray(1, 4).toString('ascii') === 'PNG';
