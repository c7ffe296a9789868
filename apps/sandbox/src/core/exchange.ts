// The life of one simulated upstream call, shared by every protocol: resolving and applying the controls
// (latency, forced failures, cut and hung connections), writing SSE frames with the chunk delay, and
// recording the outcome in the stats exactly once.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ControlDefaults, ControlError, type SandboxControls, resolveControls, sleep } from './controls';
import type { SandboxStats } from './stats';

/** Renders an error body in a protocol's dialect. */
export type ErrorRenderer = (status: number, message: string, param: string | null, code: string | null) => unknown;

interface CallState {
  route: string;
  recorded: boolean;
  signal: AbortSignal;
}

const FAILURES: Record<'500' | '429' | '503', { message: string; code: string | null }> = {
  '500': { message: 'The server had an error while processing your request. (sandbox fail=500)', code: null },
  '429': { message: 'Rate limit reached for requests. (sandbox fail=429)', code: 'rate_limit_exceeded' },
  '503': { message: 'The engine is currently overloaded, please try again later. (sandbox fail=503)', code: null },
};

/** A wait between two frames of an event stream (a run working before its next event). */
export interface SsePause {
  pauseMs: number;
}

export class Exchange {
  private readonly calls = new WeakMap<FastifyRequest, CallState>();

  constructor(
    readonly stats: SandboxStats,
    private readonly defaults: ControlDefaults,
  ) {}

  /** Starts tracking a call: its outcome is recorded when the connection closes, unless marked earlier. */
  track(request: FastifyRequest, reply: FastifyReply): void {
    const controller = new AbortController();
    const state: CallState = { route: `${request.method} ${request.routeOptions.url ?? request.url}`, recorded: false, signal: controller.signal };
    this.calls.set(request, state);
    reply.raw.once('close', () => {
      const finished = reply.raw.writableFinished;
      if (!finished) controller.abort();
      this.record(request, finished ? (reply.raw.statusCode < 400 ? 'ok' : `status_${reply.raw.statusCode}`) : 'aborted');
    });
  }

  /** Aborted when the client goes away before the answer is complete. */
  signal(request: FastifyRequest): AbortSignal {
    return this.calls.get(request)?.signal ?? new AbortController().signal;
  }

  record(request: FastifyRequest, outcome: string): void {
    const state = this.calls.get(request);
    if (!state || state.recorded) return;
    state.recorded = true;
    this.stats.record(state.route, outcome);
  }

  controls(request: FastifyRequest, model: string | undefined): SandboxControls {
    return resolveControls(request.headers, model, this.defaults);
  }

  /**
   * Waits the latency and carries out a forced failure. Returns the controls when the handler should answer,
   * or null when the call was already dealt with (error sent, connection cut, or left hanging).
   */
  async gate(
    request: FastifyRequest,
    reply: FastifyReply,
    model: string | undefined,
    renderError: ErrorRenderer,
    { stream }: { stream: boolean },
  ): Promise<SandboxControls | null> {
    let controls: SandboxControls;
    try {
      controls = this.controls(request, model);
    } catch (error) {
      if (!(error instanceof ControlError)) throw error;
      await reply.code(400).send(renderError(400, error.message, error.param, 'invalid_value'));
      return null;
    }
    const signal = this.signal(request);
    await sleep(controls.latencyMs, signal);
    if (signal.aborted) return null;
    const fail = controls.fail;
    if (fail === 'hang') {
      this.record(request, 'hang');
      reply.hijack();
      return null;
    }
    if (fail === 'cut' && !stream) {
      this.record(request, 'cut');
      reply.hijack();
      reply.raw.destroy();
      return null;
    }
    if (fail === '500' || fail === '429' || fail === '503') {
      const status = Number(fail);
      if (fail === '429') reply.header('retry-after', '1');
      await reply.code(status).send(renderError(status, FAILURES[fail].message, null, FAILURES[fail].code));
      return null;
    }
    return controls;
  }

  /**
   * Writes pre-encoded SSE frames with the chunk delay, and waits where a pause stands between them;
   * `cut` closes the connection after two frames.
   */
  async sendSse(request: FastifyRequest, reply: FastifyReply, frames: readonly (string | SsePause)[], controls: SandboxControls): Promise<void> {
    await this.sendStream(request, reply, frames, controls, 'text/event-stream; charset=utf-8');
  }

  /** As sendSse, for any framing: binary frames (an AWS event stream) under their own content type. */
  async sendStream(
    request: FastifyRequest,
    reply: FastifyReply,
    frames: readonly (string | Uint8Array | SsePause)[],
    controls: SandboxControls,
    contentType: string,
  ): Promise<void> {
    const signal = this.signal(request);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': contentType,
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': request.id,
    });
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i]!;
      if (typeof frame !== 'string' && !(frame instanceof Uint8Array)) {
        await sleep(frame.pauseMs, signal);
        continue;
      }
      if (i > 0) await sleep(controls.chunkDelayMs, signal);
      if (signal.aborted) return;
      if (controls.fail === 'cut' && i === 2) {
        this.record(request, 'cut');
        res.destroy();
        return;
      }
      if (controls.fail === 'cut') {
        // Flushed before the cut so the client really receives the first frames.
        await new Promise<void>((resolve) => res.write(frame, () => resolve()));
      } else {
        res.write(frame);
      }
    }
    res.end();
  }
}

export function dataFrame(payload: unknown): string {
  return `data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`;
}

export function eventFrame(event: string, payload: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
}
