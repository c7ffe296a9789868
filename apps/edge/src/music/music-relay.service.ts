import { GatewayError, MusicCallbackReply, SUBJECTS } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Injectable } from '@nestjs/common';

const TIMEOUT = { timeoutMs: 30_000 };

/** Hands an upstream's callback to the music service (the family's routes are relayed from the route table). */
@Injectable()
export class MusicRelayService {
  constructor(private readonly bus: NatsBus) {}

  /** An upstream's callback: accepted or not, the caller learns nothing beyond "not found" for an unknown token. */
  async callback(token: string, body: unknown): Promise<void> {
    const { accepted } = await this.bus.request(SUBJECTS.music.callback, { token, body }, MusicCallbackReply, TIMEOUT);
    if (!accepted) throw GatewayError.notFound('No music task answers to this callback URL.');
  }
}
