import { SERVICES, SUBJECTS, type ServiceName } from '@gateway/contracts';
import { loadEnv, NatsBus, redisCheck, type ReadinessCheck } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { LimitsEnv } from '../limits/limits-env';

export interface Readiness {
  ready: boolean;
  nats: boolean;
  /** Reported, not required: an edge taken out of its load balancer for a Redis fault would turn 503s with Retry-After into the balancer's 502s. */
  redis: boolean;
  services: Record<ServiceName, 'ok' | 'no answer'>;
}

const PING_TIMEOUT_MS = 1000;

/** Ready means NATS is connected and every service answers its health ping, all pinged at once; Redis answering PING is reported beside. */
@Injectable()
export class ReadinessService {
  /** Set when the edge begins to shut down: it is not ready from then on, whatever answers. */
  draining = false;

  private readonly redisAnswers: ReadinessCheck;

  constructor(private readonly bus: NatsBus) {
    this.redisAnswers = redisCheck(loadEnv(LimitsEnv));
  }

  async check(): Promise<Readiness> {
    const nats = !this.bus.connection.isClosed();
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)));
    const redis = Promise.race([
      this.redisAnswers().then(
        () => true,
        () => false,
      ),
      silent,
    ]).finally(() => clearTimeout(timer));
    const answers = await Promise.all(
      SERVICES.map((service) =>
        nats
          ? this.bus.request(SUBJECTS.health(service), {}, z.unknown(), { timeoutMs: PING_TIMEOUT_MS }).then(
              () => true,
              () => false,
            )
          : false,
      ),
    );
    const services = Object.fromEntries(SERVICES.map((s, i) => [s, answers[i] ? 'ok' : 'no answer'])) as Readiness['services'];
    return { ready: !this.draining && nats && answers.every(Boolean), nats, redis: await redis, services };
  }
}
