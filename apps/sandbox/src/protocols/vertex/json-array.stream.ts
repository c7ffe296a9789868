// Vertex's stream without `alt=sse`: one JSON array whose elements arrive one by one (`[{…}\r\n,{…}\r\n]`),
// written with the chunk delay; `cut` closes the connection after two elements.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Exchange } from '../../core/exchange';
import { type SandboxControls, sleep } from '../../core/controls';

export async function sendJsonArrayStream(
  exchange: Exchange,
  request: FastifyRequest,
  reply: FastifyReply,
  elements: readonly unknown[],
  controls: SandboxControls,
): Promise<void> {
  const signal = exchange.signal(request);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', 'x-request-id': request.id });
  for (let i = 0; i < elements.length; i++) {
    if (i > 0) await sleep(controls.chunkDelayMs, signal);
    if (signal.aborted) return;
    if (controls.fail === 'cut' && i === 2) {
      exchange.record(request, 'cut');
      res.destroy();
      return;
    }
    res.write(`${i === 0 ? '[' : ','}${JSON.stringify(elements[i])}\r\n`);
  }
  res.end(elements.length === 0 ? '[]' : ']');
}
