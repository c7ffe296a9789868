import { z } from 'zod';
import { BaseEnv, loadEnv } from '../config/env';

const ReplicasEnv = z.object({ NATS_STREAM_REPLICAS: BaseEnv.shape.NATS_STREAM_REPLICAS });

/** How many copies each stream the gateway makes is kept in (`NATS_STREAM_REPLICAS`). */
export function streamReplicas(env: NodeJS.ProcessEnv = process.env): number {
  return loadEnv(ReplicasEnv, env).NATS_STREAM_REPLICAS;
}
