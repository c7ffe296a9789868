import type { Capability } from '@gateway/contracts';
import type { MediaJob } from '@gateway/providers';
import type { MediaTask } from '../tasks/media-task.repository';
import type { MediaRoute } from './media-route';

/** A create request decoded: the catalog model it names (and the field that named it) and the job. */
export interface DecodedCreate {
  catalogId: string;
  modelParam: string;
  capability: Capability;
  job: MediaJob;
}

/** What rendering a task needs beside the task: the signed links to its stored results, and the request id. */
export interface RenderContext {
  links: string[];
  requestId: string;
}

/** One family's view of media tasks: its request bodies in, its task shapes and status words out. */
export interface FamilyCodec {
  decode(route: MediaRoute, body: unknown): DecodedCreate;
  created(task: MediaTask, context: RenderContext): Record<string, unknown>;
  task(task: MediaTask, context: RenderContext): Record<string, unknown>;
}
