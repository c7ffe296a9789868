// The sandbox for Azure specs: its API over HTTP, and the same app over HTTPS for the identity platform
// (MSAL takes only an https authority), with the loopback test certificate the credential is told to trust.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { buildSandboxApp } from '@gateway/sandbox';
import type { FastifyInstance } from 'fastify';

const TLS_DIR = join(__dirname, '../../../../apps/sandbox/test/support/tls');

export interface AzureSandbox {
  /** HTTP origin of the sandbox. */
  base: string;
  /** HTTPS origin of the same sandbox: the `authorityHost`. */
  authority: string;
  /** The certificate to trust for `authority`. */
  ca: string;
  /** Tokens issued so far by the identity platform. */
  issued(): Promise<number>;
  /** Token lifetime in seconds, and a status the token endpoint answers with (null: it works). */
  identity(settings: { expiresIn?: number; failWith?: number | null }): Promise<void>;
}

export function azureSandbox(): AzureSandbox {
  const handle = {} as AzureSandbox;
  let app: FastifyInstance | undefined;
  let tls: Server | undefined;
  beforeAll(async () => {
    ({ app } = await buildSandboxApp());
    handle.base = await app.listen({ host: '127.0.0.1', port: 0 });
    const ca = readFileSync(join(TLS_DIR, 'loopback.crt'), 'utf8');
    const server = createServer({ key: readFileSync(join(TLS_DIR, 'loopback.key')), cert: ca }, (request, response) =>
      app!.server.emit('request', request, response),
    );
    tls = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    handle.authority = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    handle.ca = ca;
    handle.issued = async () => ((await (await fetch(`${handle.base}/_sandbox/azure-identity`)).json()) as { issued: number }).issued;
    handle.identity = async (settings) => {
      const response = await fetch(`${handle.base}/_sandbox/azure-identity`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(settings),
      });
      if (!response.ok) throw new Error(`identity control refused: ${await response.text()}`);
    };
  });
  afterAll(async () => {
    tls?.closeAllConnections();
    await new Promise((resolve) => (tls ? tls.close(resolve) : resolve(undefined)));
    await app?.close();
  });
  return handle;
}
