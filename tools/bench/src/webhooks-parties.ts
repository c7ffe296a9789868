/**
 * The bench's own parties in `npm run bench:webhooks`: the tenant's receiver and the music upstream that
 * calls the gateway back only when told.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** The tenant's receiver: answers 204 at once on /ok, never on /slow; records when each task's webhook first arrived. */
export function startReceiver() {
  const hits = new Map<string, number>();
  let baselineHits = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url?.startsWith('/baseline')) baselineHits++;
      else {
        const taskId = (JSON.parse(Buffer.concat(chunks).toString()) as { data: { taskId: string } }).data.taskId;
        if (!hits.has(taskId)) hits.set(taskId, performance.now());
      }
      if (!req.url?.startsWith('/slow')) res.writeHead(204).end();
    });
  });
  return { server, hits, baselineHits: () => baselineHits };
}

export interface BenchTask {
  index: number;
  slow: boolean;
  taskId?: string;
  upstreamId?: string;
  intake?: string;
  sentAt?: number;
  answeredAt?: number;
}

/** The music upstream: takes lyrics tasks (the prompt names the bench's task), calls back only when the bench says so. */
export function startUpstream(tasks: Map<number, BenchTask>) {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { callBackUrl: string; prompt: string };
        const upstreamId = randomBytes(16).toString('hex');
        Object.assign(tasks.get(Number(body.prompt.split('-')[1]))!, { upstreamId, intake: body.callBackUrl });
        return res.end(JSON.stringify({ code: 200, msg: 'success', data: { taskId: upstreamId } }));
      }
      const taskId = new URL(req.url ?? '/', 'http://x').searchParams.get('taskId') ?? '';
      res.end(JSON.stringify({ code: 200, msg: 'success', data: { taskId, status: 'PENDING', response: null } }));
    });
  });
}
