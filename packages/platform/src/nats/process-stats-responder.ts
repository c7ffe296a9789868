import { ProcessStatsProbe, ProcessStatsRequest, SUBJECTS } from '@gateway/contracts';
import type { NatsConnection, Subscription } from 'nats';
import { decodeJson, encodeJson } from './codec';

/**
 * Answers the process-stats broadcast for this process (every replica of every app answers, so no
 * queue group). Unsubscribing stops the probe's histogram too.
 */
export function answerProcessStats(connection: NatsConnection, prefix: string, app: string): Subscription {
  const probe = new ProcessStatsProbe(app);
  const subscription = connection.subscribe(prefix + SUBJECTS.ops.processStats, {
    callback: (error, msg) => {
      if (error) return;
      let request: ProcessStatsRequest;
      try {
        request = ProcessStatsRequest.parse(decodeJson(msg.data) ?? {});
      } catch {
        return;
      }
      msg.respond(encodeJson(probe.read(request)));
    },
  });
  void subscription.closed.then(() => probe.stop());
  return subscription;
}
