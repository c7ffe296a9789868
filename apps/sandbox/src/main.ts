// Entry point of the sandbox upstream process.
import { buildSandboxApp } from './sandbox.app';
import { loadSandboxEnv } from './sandbox-env';

async function main(): Promise<void> {
  let env;
  try {
    env = loadSandboxEnv();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  const { app } = await buildSandboxApp({ latencyMs: env.SANDBOX_LATENCY_MS, chunkDelayMs: env.SANDBOX_CHUNK_DELAY_MS, logLevel: env.LOG_LEVEL });
  const address = await app.listen({ host: env.SANDBOX_HOST, port: env.SANDBOX_PORT });
  process.stdout.write(`sandbox listening on ${address}\n`);
  const stop = (): void => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
