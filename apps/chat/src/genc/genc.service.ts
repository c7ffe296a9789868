import { GencCallPayload, GenerateContentRequest, parseOrThrow, type ReplyNote } from '@gateway/contracts';
import { fromGencRequest } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { ClaimCheckService } from '../claim-check/claim-check.service';
import { FamilyChatService } from '../pipeline/family-chat.service';
import { UsageMeter } from '../usage/usage-meter';

const FAMILY = 'genc';

/**
 * The genc family: generateContent and streamGenerateContent against whatever protocol the model's
 * channels speak (Gemini ones get the body as sent). The model and the streaming flag come from the path.
 */
@Injectable()
export class GencService {
  constructor(
    private readonly claimCheck: ClaimCheckService,
    private readonly chat: FamilyChatService,
  ) {}

  async generate(payload: unknown, signal: AbortSignal, note?: ReplyNote): Promise<unknown> {
    const caller = parseOrThrow(GencCallPayload, payload);
    const meter = new UsageMeter(caller, FAMILY, caller.model);
    return this.chat.serve(
      FAMILY,
      caller,
      meter,
      async () => {
        const body = await this.claimCheck.checkedBody(caller, GenerateContentRequest);
        return {
          modelId: caller.model,
          body,
          stream: caller.stream,
          decode: () => fromGencRequest(body, caller.model, caller.stream),
          cache: caller.cache,
        };
      },
      signal,
      note,
    );
  }
}
