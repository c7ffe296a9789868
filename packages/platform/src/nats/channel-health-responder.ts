import { SUBJECTS, type ChannelHealthReading } from '@gateway/contracts';
import type { NatsConnection, Subscription } from 'nats';
import { readChannelCounters } from '../observability/channel-counters';
import { encodeJson } from './codec';

/**
 * Answers the channel-health broadcast with this process's upstream counters by channel (every replica
 * of every app answers, so no queue group). A process that never called an upstream answers no channels.
 */
export function answerChannelHealth(connection: NatsConnection, prefix: string, app: string): Subscription {
  return connection.subscribe(prefix + SUBJECTS.ops.channelHealth, {
    callback: (error, msg) => {
      if (error) return;
      void readChannelCounters().then(
        (channels) => {
          const reading: ChannelHealthReading = { app, pid: process.pid, channels };
          msg.respond(encodeJson(reading));
        },
        () => undefined,
      );
    },
  });
}
