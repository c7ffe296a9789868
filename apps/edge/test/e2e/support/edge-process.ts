/**
 * The process behind a listener of the running stack, read from /proc: its pid (a crash and restart
 * changes it), its open descriptors, and the files of the object-storage folder.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';

/** The inode of the socket listening on `port` (any local address), from /proc/net/tcp and tcp6. */
async function listeningInode(port: number): Promise<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const row of rows) {
      const cols = row.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth column.
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A') return cols[9]!;
    }
  }
  throw new Error(`nothing listens on port ${port}`);
}

/** The pid of the process listening on the port of `baseUrl`. */
export async function listenerPid(baseUrl: string): Promise<number> {
  const inode = await listeningInode(Number(new URL(baseUrl).port));
  const target = `socket:[${inode}]`;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fds = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      if ((await readlink(`/proc/${entry}/fd/${fd}`).catch(() => '')) === target) return Number(entry);
    }
  }
  throw new Error(`no process of this user holds the listener of ${baseUrl}`);
}

/** How many descriptors `pid` holds open. */
export async function openDescriptors(pid: number): Promise<number> {
  return (await readdir(`/proc/${pid}/fd`)).length;
}

/** Every file under `dir`, as paths relative to it, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
