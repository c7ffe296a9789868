import { SERVICES, SUBJECTS, type ServiceName } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import { z } from 'zod';

export interface Readiness {
  ready: boolean;
  nats: boolean;
  services: Record<ServiceName, 'ok' | 'no answer'>;
}

const PING_TIMEOUT_MS = 1000;

/** Ready means NATS is connected and every service answers its health ping, all pinged at once. */
@Injectable()
export class ReadinessService {
  /** Set when the edge begins to shut down: it is not ready from then on, whatever answers. */
  draining = false;

  constructor(private readonly bus: NatsBus) {}

  async check(): Promise<Readiness> {
    const nats = !this.bus.connection.isClosed();
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
    return { ready: !this.draining && nats && answers.every(Boolean), nats, services };
  }
}
