/**
 * The BullMQ key prefix of one service's queues in one namespace. BullMQ names every key of a queue
 * `<prefix>:<queue>:...`; a prefix that is one hash tag puts all of them (and every queue of the service)
 * in one Redis Cluster slot, as its multi-key scripts need. The namespace comes from NATS_PREFIX, so test
 * runs and deployments sharing a Redis never share a queue.
 */
export function queuePrefix(service: string, natsPrefix = ''): string {
  const namespace = queueNamespace(natsPrefix);
  if (!/^[A-Za-z0-9_-]+$/.test(service)) throw new Error(`queue service name ${JSON.stringify(service)} is not [A-Za-z0-9_-]+`);
  return `{q:${namespace}:${service}}`;
}

/** The namespace part of every queue prefix of one NATS_PREFIX. */
export function queueNamespace(natsPrefix = ''): string {
  return natsPrefix.replace(/\.$/, '').replace(/[^A-Za-z0-9_-]/g, '_') || 'default';
}
