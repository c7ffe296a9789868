import type { AssistantsCallPayload } from '@gateway/contracts';

/** A checked assistants call: the NATS payload with its body redeemed (inline or from its claim check). */
export type AssistantsRequest = AssistantsCallPayload & { body: unknown };
