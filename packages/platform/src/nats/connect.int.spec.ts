import net from 'node:net';
import { connectNats } from './connect';

/** A TCP server whose first `silent` connections never hear a byte; later ones are piped to the real NATS. */
async function slowStartProxy(silent: number): Promise<{ url: string; close: () => void }> {
  let seen = 0;
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    if (seen++ < silent) return;
    const upstream = net.connect(4222, '127.0.0.1');
    sockets.push(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `nats://127.0.0.1:${port}`,
    close: () => {
      sockets.forEach((socket) => socket.destroy());
      server.close();
    },
  };
}

describe('connectNats', () => {
  it('tries again when the first handshake times out, and connects', async () => {
    const proxy = await slowStartProxy(1);
    try {
      const connection = await connectNats(proxy.url, 'connect-spec');
      await connection.flush();
      await connection.close();
    } finally {
      proxy.close();
    }
  });

  it('fails with the server and the command that starts it once the deadline has passed', async () => {
    const proxy = await slowStartProxy(Number.MAX_SAFE_INTEGER);
    try {
      await expect(connectNats(proxy.url, 'connect-spec', 1000)).rejects.toThrow(`NATS does not answer at ${proxy.url} (TIMEOUT); start it with:`);
    } finally {
      proxy.close();
    }
  });

  it('fails at once when nothing listens', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(connectNats(`nats://127.0.0.1:${port}`, 'connect-spec')).rejects.toThrow(/NATS does not answer at .*CONNECTION_REFUSED/);
  });
});
