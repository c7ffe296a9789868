/**
 * A listener's graceful stop: it takes no new connection from now on, answers what is in flight (open
 * streams included) and closes each connection as soon as it has nothing in flight, until `graceMs`;
 * then whatever is left is cut.
 */
import type { Server } from 'node:http';

const IDLE_SWEEP_MS = 100;

export function drainServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    // A keep-alive socket whose stream just ended is idle: closing it at once ends the drain sooner
    // than its keep-alive timeout would.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
  });
}
