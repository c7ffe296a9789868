// Per-request behaviour controls: latency, chunk delay, forced failures and how long an assistants run
// takes, taken from request headers or from a suffix on the model name (`sandbox-gpt@latency=20,chunk=5,fail=500`,
// `sandbox-gpt@run=3000`) so a gateway catalog can select them without any client header.
import { z } from 'zod';

export const FailMode = z.enum(['500', '429', '503', 'cut', 'hang']);
export type FailMode = z.infer<typeof FailMode>;

export interface SandboxControls {
  latencyMs: number;
  chunkDelayMs: number;
  fail: FailMode | null;
}

export interface ControlDefaults {
  latencyMs: number;
  chunkDelayMs: number;
}

const Millis = z.coerce.number().int().min(0).max(600_000);

export class ControlError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/** Splits `name@k=v,k=v` into the bare model name and its options. */
export function splitModelName(model: string): { name: string; options: Record<string, string> } {
  const at = model.indexOf('@');
  if (at < 0) return { name: model, options: {} };
  const options: Record<string, string> = {};
  for (const part of model.slice(at + 1).split(',')) {
    const [key, ...rest] = part.split('=');
    if (key?.trim()) options[key.trim()] = rest.join('=').trim();
  }
  return { name: model.slice(0, at), options };
}

function parseMillis(value: string | undefined, param: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Millis.safeParse(value);
  if (!parsed.success) throw new ControlError(`Invalid ${param}: "${value}" is not a number of milliseconds.`, param);
  return parsed.data;
}

function parseFail(value: string | undefined, param: string): FailMode | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = FailMode.safeParse(value);
  if (!parsed.success) throw new ControlError(`Invalid ${param}: "${value}" (expected ${FailMode.options.join(', ')}).`, param);
  return parsed.data;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Headers win over the model suffix, which wins over the process defaults. */
export function resolveControls(headers: Record<string, string | string[] | undefined>, model: string | undefined, defaults: ControlDefaults): SandboxControls {
  const options = model ? splitModelName(model).options : {};
  return {
    latencyMs:
      parseMillis(header(headers, 'x-sandbox-latency-ms'), 'x-sandbox-latency-ms') ?? parseMillis(options.latency, 'model@latency') ?? defaults.latencyMs,
    chunkDelayMs:
      parseMillis(header(headers, 'x-sandbox-chunk-delay-ms'), 'x-sandbox-chunk-delay-ms') ??
      parseMillis(options.chunk, 'model@chunk') ??
      defaults.chunkDelayMs,
    fail: parseFail(header(headers, 'x-sandbox-fail'), 'x-sandbox-fail') ?? parseFail(options.fail, 'model@fail') ?? null,
  };
}

/**
 * How long an assistants run stays in progress before it completes (`x-sandbox-run-ms`, or
 * `model@run=ms`): 0, the default, completes it at once. A client that does not wait sees it
 * `in_progress`; asking again after that time finds it completed with its usage.
 */
export function resolveRunMs(headers: Record<string, string | string[] | undefined>, model: string | undefined): number {
  const options = model ? splitModelName(model).options : {};
  return parseMillis(header(headers, 'x-sandbox-run-ms'), 'x-sandbox-run-ms') ?? parseMillis(options.run, 'model@run') ?? 0;
}

/**
 * A field of the answer to send under a wrong name (`x-sandbox-drift`, or `model@drift=field`): the vendor's
 * shape gone astray, so a conformance spec can prove the vendor's SDK notices.
 */
export function resolveDrift(headers: Record<string, string | string[] | undefined>, model: string | undefined): string | null {
  const options = model ? splitModelName(model).options : {};
  return header(headers, 'x-sandbox-drift') || options.drift || null;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
