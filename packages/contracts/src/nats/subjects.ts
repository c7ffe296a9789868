/**
 * Every NATS subject, named `<service>.<family>.<verb>`. Deployments prefix them all with NATS_PREFIX
 * (e.g. a test run's own prefix), applied in one place: the platform's NATS bus and transport.
 */
export const SERVICES = ['accounts', 'chat', 'media', 'music', 'files'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The service a subject belongs to: its first segment, by the naming rule above. */
export function serviceOfSubject(subject: string): ServiceName {
  const service = subject.slice(0, subject.indexOf('.'));
  if (!(SERVICES as readonly string[]).includes(service)) throw new Error(`${subject} names no service`);
  return service as ServiceName;
}

export const SUBJECTS = {
  health: (service: ServiceName) => `${service}.health.ping`,
  /** Broadcast to every replica of a service: "stop the stream whose reply subject this payload names". */
  streamCancel: (service: ServiceName) => `${service}.stream.cancel`,
  accounts: {
    keys: {
      resolve: 'accounts.keys.resolve',
      create: 'accounts.keys.create',
      regenerate: 'accounts.keys.regenerate',
      revoke: 'accounts.keys.revoke',
      list: 'accounts.keys.list',
    },
    models: { visible: 'accounts.models.visible' },
    tenants: { create: 'accounts.tenants.create', get: 'accounts.tenants.get' },
    subscriptions: { set: 'accounts.subscriptions.set' },
    balance: { topup: 'accounts.balance.topup', show: 'accounts.balance.show' },
    config: { apply: 'accounts.config.apply' },
    room: { models: 'accounts.room.models' },
    catalog: { channels: 'accounts.catalog.channels' },
    /** Broadcast (no queue group): every edge replica drops what it cached. */
    invalidated: 'accounts.events.invalidated',
  },
  chat: {
    oaic: {
      chat: 'chat.oaic.chat',
      completions: 'chat.oaic.completions',
      responses: 'chat.oaic.responses',
      responseGet: 'chat.oaic.responses.get',
      embeddings: 'chat.oaic.embeddings',
      moderations: 'chat.oaic.moderations',
      images: 'chat.oaic.images',
      speech: 'chat.oaic.audio.speech',
      transcriptions: 'chat.oaic.audio.transcriptions',
      translations: 'chat.oaic.audio.translations',
      /** Assistants, threads, messages and runs: one subject, the operation named in the payload. */
      assistants: 'chat.oaic.assistants',
    },
    msgc: { messages: 'chat.msgc.messages', countTokens: 'chat.msgc.count-tokens' },
    genc: { generate: 'chat.genc.generate' },
    /** JetStream (durable): batches of usage events, written by accounts. */
    usageRecorded: 'chat.usage.recorded',
  },
  files: {
    oaic: {
      create: 'files.oaic.files.create',
      list: 'files.oaic.files.list',
      get: 'files.oaic.files.get',
      delete: 'files.oaic.files.delete',
      content: 'files.oaic.files.content',
    },
    batches: {
      create: 'files.oaic.batches.create',
      list: 'files.oaic.batches.list',
      get: 'files.oaic.batches.get',
      cancel: 'files.oaic.batches.cancel',
    },
  },
} as const;

/** Header names of the NATS envelope. */
export const NATS_HEADERS = {
  stream: 'gw-stream',
  kind: 'gw-kind',
  /** On a reply or a stream's end: what the request was served with (ReplyNote), for the edge's access line. */
  note: 'gw-note',
  /**
   * On a unary reply too large for one NATS message: the key under which the reply waits in the reply
   * store (Redis), taken once by the caller; the message itself is empty.
   */
  replyRef: 'gw-reply-ref',
} as const;

/** Kinds of message on a streamed reply: data frames, then exactly one end or error. */
export const STREAM_KINDS = { data: 'data', end: 'end', error: 'error' } as const;
