// What a simulated vendor protocol provides: a URL prefix, its error dialect, and a Fastify plugin with its
// routes. Protocols are listed once in protocols/index.ts.
import type { FastifyPluginAsync } from 'fastify';
import type { Holds } from './holds';
import type { ErrorRenderer, Exchange } from './exchange';
import type { FileShelf } from './file-shelf';

export interface ProtocolDeps {
  exchange: Exchange;
  files: FileShelf;
  holds: Holds;
}

export interface SandboxProtocol {
  name: string;
  prefix: string;
  renderError: ErrorRenderer;
  plugin: FastifyPluginAsync<ProtocolDeps>;
}
