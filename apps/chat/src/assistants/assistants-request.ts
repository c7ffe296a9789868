import type { AssistantsCallPayload, ReplyNote } from '@gateway/contracts';

/**
 * A checked assistants call: the NATS payload with its body redeemed (inline or from its claim check), and
 * the reply's note, told a run's model, channel and tokens when the call records its usage.
 */
export type AssistantsRequest = AssistantsCallPayload & { body: unknown; note?: ReplyNote };
