/**
 * Every NATS subject, named `<service>.<family>.<verb>` after the service that answers it (`ops.*`: every
 * process). Deployments prefix them all with NATS_PREFIX, applied in one place: the platform's NATS bus.
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
  /** Broadcasts (no queue group) every process answers for itself. */
  ops: {
    /** Memory, event-loop delay and open handles of the process (soak runs, operators). */
    processStats: 'ops.process.stats',
    /** The counters of the channels a process calls upstreams on. */
    channelHealth: 'ops.channels.health',
    /** "Which of these reply subjects do you hold?": asked when a server of the cluster leaves. */
    requestProbe: 'ops.requests.probe',
  },
  accounts: {
    keys: {
      resolve: 'accounts.keys.resolve',
      create: 'accounts.keys.create',
      regenerate: 'accounts.keys.regenerate',
      revoke: 'accounts.keys.revoke',
      list: 'accounts.keys.list',
    },
    projects: { create: 'accounts.projects.create', list: 'accounts.projects.list', grant: 'accounts.projects.grant' },
    budgets: {
      set: 'accounts.budgets.set',
      show: 'accounts.budgets.show',
      list: 'accounts.budgets.list',
      clear: 'accounts.budgets.clear',
      ofKey: 'accounts.budgets.of-key',
    },
    /** Account alerts: a tenant's webhook endpoint, its thresholds and the alerts sent. */
    alerts: {
      endpointSet: 'accounts.alerts.endpoint.set',
      endpointShow: 'accounts.alerts.endpoint.show',
      settingsSet: 'accounts.alerts.settings.set',
      settingsShow: 'accounts.alerts.settings.show',
      list: 'accounts.alerts.list',
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
    billing: {
      /** {tenantId} → BillingProfile: what a billing client needs to price and meter a tenant's requests. */
      profile: 'accounts.billing.profile',
      /** {tenantId} → {micros}: copy the stored balance into Redis when Redis has none for the tenant. */
      seed: 'accounts.billing.seed',
      /** Operator settings of a tenant's billing: limits, custom quota, price overrides. */
      configure: 'accounts.billing.configure',
      /** Usage grouped by model, key or day. */
      usageSummary: 'accounts.usage.summary',
      /** A tenant's usage rows found by the client's x-request-id, or by the server's request id. */
      usageRequests: 'accounts.usage.requests',
    },
    deadLetters: { list: 'accounts.dead-letters.list', replay: 'accounts.dead-letters.replay' },
    /** JetStream (durable): records a consumer gave up on, one subject per consumer (`usage`, `ledger`). */
    deadLetter: { all: 'accounts.dead-letter.*', of: (consumer: string) => `accounts.dead-letter.${consumer}` },
    money: { ledger: 'accounts.money.ledger', reconcile: 'accounts.money.reconcile' },
    /** A tenant's or a key's response cache settings. */
    cache: { set: 'accounts.cache.set' },
    /** The console's people, sessions (resolved by the edge on every console call), single sign-on and pages. */
    console: {
      users: {
        invite: 'accounts.console.users.invite',
        inviteInfo: 'accounts.console.users.invite-info',
        acceptInvite: 'accounts.console.users.accept-invite',
        list: 'accounts.console.users.list',
      },
      sessions: {
        signIn: 'accounts.console.sessions.sign-in',
        openOperator: 'accounts.console.sessions.open-operator',
        resolve: 'accounts.console.sessions.resolve',
        signOut: 'accounts.console.sessions.sign-out',
        revoke: 'accounts.console.sessions.revoke',
        list: 'accounts.console.sessions.list',
      },
      oidc: {
        configure: 'accounts.console.oidc.configure',
        show: 'accounts.console.oidc.show',
        begin: 'accounts.console.oidc.begin',
        complete: 'accounts.console.oidc.complete',
      },
      /** The models a tenant may use, with the prices it pays. */
      models: 'accounts.console.models',
      /** Tenants page by page, with their balance: the operator console's list. */
      tenants: 'accounts.console.tenants.list',
      /** Projects with their keys, people and budgets; budgets changed on a person's project rights. */
      projects: {
        list: 'accounts.console.projects.list',
        ofTenant: 'accounts.console.projects.of-tenant',
        setBudget: 'accounts.console.projects.budget-set',
        clearBudget: 'accounts.console.projects.budget-clear',
      },
      usage: {
        overview: 'accounts.console.usage.overview',
        summary: 'accounts.console.usage.summary',
        records: 'accounts.console.usage.records',
        record: 'accounts.console.usage.record',
      },
      /** What the ledger held, charged and gave back for billing request ids (a task's hold). */
      charges: 'accounts.console.charges',
      keyLimits: { show: 'accounts.console.keys.limits.show', set: 'accounts.console.keys.limits.set' },
      /** Models page by page, each with its channels (never their keys). */
      catalog: 'accounts.console.catalog',
      /** Dead letters page by page (a cursor: the last id of the page before), and one in full. */
      deadLetters: 'accounts.console.dead-letters.page',
      deadLetter: 'accounts.console.dead-letters.get',
      /** BullMQ queue depths of every service's queues in this namespace. */
      queues: 'accounts.console.queues',
      /** The last reconciliation of every tenant, and a new one. */
      reconcileLast: 'accounts.console.reconcile.last',
      reconcileRun: 'accounts.console.reconcile.run',
    },
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
    /** The response cache: forget a tenant's entries; entries stored and tenants purged (broadcast to every chat process). */
    cache: { purge: 'chat.cache.purge', changed: 'chat.cache.changed' },
    /** JetStream (durable): batches of usage events, written by accounts. */
    usageRecorded: 'chat.usage.recorded',
  },
  /** The media service's api role. */
  media: {
    /** A create route of oaic videos, dsc or nativemedia: validate, hold, submit, record. */
    create: 'media.task.create',
    /** A query route: the task as its family shows it. */
    get: 'media.task.get',
    /** `GET /oaic/v1/videos/{id}/content`: where the stored video waits for the edge to stream it. */
    content: 'media.task.content',
    /** A native-media image model on `POST /oaic/v1/images/generations`: a task whose end the reply waits for. */
    imageGenerate: 'media.image.generate',
    /** Broadcast by whichever process moved a task to a terminal state (after billing it), for waiting replies. */
    taskEnded: 'media.task.ended',
    /** A vendor's task-end callback, relayed by the edge's public intake (a hint: the task is polled at once). */
    callback: 'media.task.callback',
    console: { tasks: 'media.console.tasks.list' },
  },
  /** The music service, which also hosts the outbound webhooks (delivery workers and their admin). */
  music: {
    create: 'music.tasks.create',
    query: 'music.tasks.query',
    /** An upstream's callback, handed on by the edge's public intake route. */
    callback: 'music.callbacks.intake',
    console: { tasks: 'music.console.tasks.list' },
    webhooks: {
      secretRotate: 'music.webhooks.secret.rotate',
      deliveries: 'music.webhooks.deliveries.list',
      redeliver: 'music.webhooks.redeliver',
      /** Broadcast after a rotation: every process drops the tenant's cached secrets at once. */
      secretRotated: 'music.webhooks.secret.rotated',
      console: { deliveries: 'music.webhooks.console.deliveries', redeliver: 'music.webhooks.console.redeliver' },
    },
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
    console: { batches: 'files.console.batches.list' },
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
