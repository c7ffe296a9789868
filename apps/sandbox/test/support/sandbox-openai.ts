import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { buildSandboxApp } from '../../src/sandbox.app';

export interface SandboxOpenAI {
  /** The openai SDK pointed at the sandbox's OpenAI protocol. */
  client: OpenAI;
  /** The sandbox's own address, for raw calls and its `/_sandbox` controls. */
  base: string;
}

/** Starts the sandbox on a free loopback port for the spec's lifetime; read the handle inside tests. */
export function sandboxOpenAI(): SandboxOpenAI {
  const handle = {} as SandboxOpenAI;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    ({ app } = await buildSandboxApp());
    handle.base = await app.listen({ host: '127.0.0.1', port: 0 });
    handle.client = new OpenAI({ apiKey: 'sk-test-upstream', baseURL: `${handle.base}/openai/v1`, maxRetries: 0, timeout: 5000 });
  });
  afterAll(async () => {
    await app?.close();
  });
  return handle;
}
