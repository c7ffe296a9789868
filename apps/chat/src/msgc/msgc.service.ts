import { CountTokensRequest, MessagesRequest, MsgcCallPayload, parseOrThrow, type CountTokensResponse, type ReplyNote } from '@gateway/contracts';
import { CatalogCache } from '@gateway/platform';
import { countTokens, fromMsgcRequest } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { ClaimCheckService } from '../claim-check/claim-check.service';
import { FamilyChatService } from '../pipeline/family-chat.service';
import { UsageMeter } from '../usage/usage-meter';

const FAMILY = 'msgc';

/**
 * The msgc family: messages against whatever protocol the model's channels speak (Anthropic ones get
 * the body as sent), and token counts estimated locally. Visibility and not-found are the catalog's.
 */
@Injectable()
export class MsgcService {
  constructor(
    private readonly claimCheck: ClaimCheckService,
    private readonly catalog: CatalogCache,
    private readonly chat: FamilyChatService,
  ) {}

  async messages(payload: unknown, signal: AbortSignal, note?: ReplyNote): Promise<unknown> {
    const caller = parseOrThrow(MsgcCallPayload, payload);
    return this.chat.serve(
      FAMILY,
      caller,
      new UsageMeter(caller, FAMILY),
      async () => {
        const body = await this.claimCheck.checkedBody(caller, MessagesRequest);
        return { modelId: body.model, body, stream: body.stream === true, decode: () => fromMsgcRequest(body), cache: caller.cache };
      },
      signal,
      note,
    );
  }

  /** Generates nothing: the local estimate of the request's input, for a model the key may use. */
  async countTokens(payload: unknown): Promise<CountTokensResponse> {
    const caller = parseOrThrow(MsgcCallPayload, payload);
    const body = await this.claimCheck.checkedBody(caller, CountTokensRequest);
    await this.catalog.route(caller, body.model, 'chat');
    return { input_tokens: countTokens(fromMsgcRequest(body)) };
  }
}
