/**
 * The tenant isolation matrix: for every resource a tenant can name through a built route, another
 * tenant naming it gets exactly the answer of naming an id that does not exist (status, content type
 * and body, with the named id itself written as <id>), so an answer never tells "exists, not yours"
 * from "does not exist". Add a row when a route that names a resource (tasks, files, batches, assistants, threads) is built.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { bearer, createTenantWithKey, e2eEnv, http, msgcHeaders, uniqueSlug, type HttpResult, type TenantWithKey } from './support/gateway';

interface Resource {
  /** What the owner's id names. */
  name: string;
  /** Creates the resource and returns the id it is named by, and the key of its owner (null: no owner may name it either). */
  create(owner: TenantWithKey): Promise<{ id: string; ownerKey: string | null }>;
  /** An id of the same shape that names nothing. */
  missing(id: string): string;
  /** A request by `key` naming `id`. */
  call(key: string, id: string): Promise<HttpResult>;
}

const base = () => e2eEnv().GW_E2E_BASE_URL;
const json = (path: string, headers: Record<string, string>, body: unknown) => http('POST', `${base()}${path}`, { headers, json: body });
const sameShape = (prefix: string, id: string) =>
  `${prefix}${randomBytes(Math.ceil((id.length - prefix.length) / 2))
    .toString('hex')
    .slice(0, id.length - prefix.length)}`;

/** A private model granted to the owner only: its id is a resource in every chat family. */
function privateModel(): { id: string; grant: (label: string) => Promise<TenantWithKey> } {
  const id = `private-${uniqueSlug('iso')}`;
  return {
    id,
    grant: (label) =>
      createTenantWithKey({
        label,
        models: [id],
        catalog: {
          models: [{ id, displayName: 'Isolation private model', capability: 'chat', public: false, provider: 'sandbox-openai', upstreamModel: 'sandbox-gpt' }],
        },
      }),
  };
}

const user = [{ role: 'user', content: 'hello' }];
const MODEL_ROUTES: Array<[string, (key: string, model: string) => Promise<HttpResult>]> = [
  ['oaic chat completions', (key, model) => json('/oaic/v1/chat/completions', bearer(key), { model, messages: user, max_tokens: 8 })],
  [
    'oaic chat completions (/v1 alias, streamed)',
    (key, model) => json('/v1/chat/completions', bearer(key), { model, messages: user, max_tokens: 8, stream: true }),
  ],
  ['oaic completions', (key, model) => json('/oaic/v1/completions', bearer(key), { model, prompt: 'hello', max_tokens: 8 })],
  ['oaic responses', (key, model) => json('/oaic/v1/responses', bearer(key), { model, input: 'hello', max_output_tokens: 8 })],
  ['msgc messages', (key, model) => json('/msgc/v1/messages', msgcHeaders(key), { model, max_tokens: 8, messages: user })],
  ['msgc count_tokens', (key, model) => json('/msgc/v1/messages/count_tokens', msgcHeaders(key), { model, messages: user })],
  [
    'genc generateContent (path)',
    (key, model) => json(`/genc/v1beta/models/${model}:generateContent`, bearer(key), { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }),
  ],
  [
    'genc streamGenerateContent (path)',
    (key, model) =>
      json(`/genc/v1beta/models/${model}:streamGenerateContent?alt=sse`, bearer(key), { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }),
  ],
];

const storedResponse = async (owner: TenantWithKey) => {
  const created = await json('/oaic/v1/responses', bearer(owner.key), {
    model: 'sandbox-gpt',
    input: 'a secret only the owner may read',
    max_output_tokens: 8,
  });
  expect(created.status).toBe(200);
  return { id: (created.body as { id: string }).id, ownerKey: owner.key };
};

/** A completed song of the owner's: its task id, and an audio id of its results for the transform routes. */
const musicAudio = new Map<string, string>();
const musicTask = async (owner: TenantWithKey) => {
  const body = { customMode: false, instrumental: false, model: 'sandbox-music', callBackUrl: 'https://hooks.example.com/iso', prompt: 'a secret song' };
  const created = await json('/music/generate', bearer(owner.key), body);
  expect(created.status).toBe(200);
  const taskId = (created.body as { data: { taskId: string } }).data.taskId;
  for (let i = 0; i < 100; i++) {
    const view = await http('GET', `${base()}/music/query/task?taskId=${taskId}`, { headers: bearer(owner.key) });
    const data = (view.body as { data: { status: string; response: { sunoData: Array<{ id: string }> } } }).data;
    if (data.status === 'SUCCESS') {
      musicAudio.set(taskId, data.response.sunoData[0]!.id);
      return { id: taskId, ownerKey: owner.key };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`music task ${taskId} did not complete`);
};

/** A batch input file of one chat line, uploaded by the owner. */
const uploadedFile = async (owner: TenantWithKey) => {
  const line = JSON.stringify({ custom_id: 'iso', method: 'POST', url: '/v1/chat/completions', body: { model: 'sandbox-gpt', messages: user, max_tokens: 8 } });
  const form = new FormData();
  form.append('purpose', 'batch');
  form.append('file', new File([line + '\n'], 'iso.jsonl'));
  const uploaded = await fetch(`${base()}/oaic/v1/files`, { method: 'POST', headers: bearer(owner.key), body: form });
  expect(uploaded.status).toBe(200);
  return { id: ((await uploaded.json()) as { id: string }).id, ownerKey: owner.key };
};

const createdBatch = async (owner: TenantWithKey) => {
  const { id: inputFileId } = await uploadedFile(owner);
  const created = await json('/oaic/v1/batches', bearer(owner.key), { input_file_id: inputFileId, endpoint: '/v1/chat/completions', completion_window: '24h' });
  expect(created.status).toBe(200);
  return { id: (created.body as { id: string }).id, ownerKey: owner.key };
};

const FILE_ROUTES: Array<[string, (key: string, id: string) => Promise<HttpResult>]> = [
  ['file: GET /oaic/v1/files/{id}', (key, id) => http('GET', `${base()}/oaic/v1/files/${id}`, { headers: bearer(key) })],
  ['file: GET /oaic/v1/files/{id}/content', (key, id) => http('GET', `${base()}/oaic/v1/files/${id}/content`, { headers: bearer(key) })],
  [
    'file: input_file_id of POST /oaic/v1/batches',
    (key, id) => json('/oaic/v1/batches', bearer(key), { input_file_id: id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
  ],
];

const BATCH_ROUTES: Array<[string, (key: string, id: string) => Promise<HttpResult>]> = [
  ['batch: GET /oaic/v1/batches/{id}', (key, id) => http('GET', `${base()}/oaic/v1/batches/${id}`, { headers: bearer(key) })],
  ['batch: GET /v1/batches/{id}', (key, id) => http('GET', `${base()}/v1/batches/${id}`, { headers: bearer(key) })],
];

/** Creates an assistants-API object as `key` (on the sandbox's assistants channel) and returns its id. */
const createdBy = (path: string, body: unknown) => async (key: string) => {
  const created = await json(path, bearer(key), body);
  expect(created.status).toBe(200);
  return (created.body as { id: string }).id;
};
const newAssistant = createdBy('/oaic/v1/assistants', { model: 'sandbox-gpt', name: 'a secret assistant' });
const newThread = createdBy('/oaic/v1/threads', { messages: [{ role: 'user', content: 'a secret' }] });
const ownAssistant = async (owner: TenantWithKey) => ({ id: await newAssistant(owner.key), ownerKey: owner.key });
/** Large instructions and messages: a run on them is held for about 100,000 tokens, which the other tenant's hold must never see. */
const LARGE = 'secret '.repeat(28_000).trim();
const ownLargeAssistant = async (owner: TenantWithKey) => ({
  id: await createdBy('/oaic/v1/assistants', { model: 'sandbox-gpt', instructions: LARGE })(owner.key),
  ownerKey: owner.key,
});
const ownLargeThread = async (owner: TenantWithKey) => ({
  id: await createdBy('/oaic/v1/threads', { messages: [{ role: 'user', content: LARGE }] })(owner.key),
  ownerKey: owner.key,
});
const ownThread = async (owner: TenantWithKey) => ({ id: await newThread(owner.key), ownerKey: owner.key });
/** A run by `key` with the assistant or on the thread named, the other of the two its own. */
const runWith = async (key: string, ids: { assistant?: string; thread?: string }) => {
  const thread = ids.thread ?? (await newThread(key));
  const assistant = ids.assistant ?? (await newAssistant(key));
  return json(`/oaic/v1/threads/${thread}/runs`, bearer(key), { assistant_id: assistant });
};

const ASSISTANT_ROUTES: Array<[string, (key: string, id: string) => Promise<HttpResult>]> = [
  ['assistant: GET /oaic/v1/assistants/{id}', (key, id) => http('GET', `${base()}/oaic/v1/assistants/${id}`, { headers: bearer(key) })],
  ['assistant: POST /oaic/v1/assistants/{id}', (key, id) => json(`/oaic/v1/assistants/${id}`, bearer(key), { name: 'renamed' })],
  ['assistant: assistant_id of POST /oaic/v1/threads/{thread_id}/runs', (key, id) => runWith(key, { assistant: id })],
];

const THREAD_ROUTES: Array<[string, (key: string, id: string) => Promise<HttpResult>]> = [
  ['thread: GET /oaic/v1/threads/{id}', (key, id) => http('GET', `${base()}/oaic/v1/threads/${id}`, { headers: bearer(key) })],
  ['thread: POST /oaic/v1/threads/{id}', (key, id) => json(`/oaic/v1/threads/${id}`, bearer(key), { metadata: { k: 'v' } })],
  ['thread: POST /oaic/v1/threads/{id}/messages', (key, id) => json(`/oaic/v1/threads/${id}/messages`, bearer(key), { role: 'user', content: 'hi' })],
  ['thread: GET /oaic/v1/threads/{id}/messages', (key, id) => http('GET', `${base()}/oaic/v1/threads/${id}/messages`, { headers: bearer(key) })],
  ['thread: POST /oaic/v1/threads/{id}/runs', (key, id) => runWith(key, { thread: id })],
  ['thread: GET /oaic/v1/threads/{id}/runs', (key, id) => http('GET', `${base()}/oaic/v1/threads/${id}/runs`, { headers: bearer(key) })],
];

/** Media tasks: the id prefix, the query route, how one is created, and where its answer names the id. */
type MediaIdOf = (body: Record<string, never>) => string;
const MEDIA_TASKS: Array<[string, string, { path: string; body: unknown }, MediaIdOf]> = [
  ['video_', '/oaic/v1/videos', { path: '/oaic/v1/videos', body: { model: 'sandbox-sora', prompt: 'a secret video' } }, (b) => b['id']],
  [
    'task_',
    '/dsc/v1/tasks',
    { path: '/dsc/v1/services/aigc/video-generation/video-synthesis', body: { model: 'sandbox-wan-video', input: { prompt: 'a secret video' } } },
    (b) => (b['output'] as { task_id: string }).task_id,
  ],
  [
    'task_',
    '/nativemedia/v1/videos/text2video',
    { path: '/nativemedia/v1/videos/text2video', body: { model_name: 'sandbox-kling', mode: 'std', prompt: 'a secret video' } },
    (b) => (b['data'] as { task_id: string }).task_id,
  ],
  [
    'task_',
    '/nativemedia/v1/images/generations',
    { path: '/nativemedia/v1/images/generations', body: { model_name: 'sandbox-kling-image', prompt: 'a secret image' } },
    (b) => (b['data'] as { task_id: string }).task_id,
  ],
];

const RESOURCES: Resource[] = [
  {
    name: 'stored response: GET /oaic/v1/responses/{id}',
    create: storedResponse,
    missing: (id) => sameShape('resp_', id),
    call: (key, id) => http('GET', `${base()}/oaic/v1/responses/${id}`, { headers: bearer(key) }),
  },
  {
    name: 'stored response: GET /v1/responses/{id}',
    create: storedResponse,
    missing: (id) => sameShape('resp_', id),
    call: (key, id) => http('GET', `${base()}/v1/responses/${id}`, { headers: bearer(key) }),
  },
  {
    name: 'stored response: previous_response_id of POST /oaic/v1/responses',
    create: storedResponse,
    missing: (id) => sameShape('resp_', id),
    call: (key, id) => json('/oaic/v1/responses', bearer(key), { model: 'sandbox-gpt', input: 'continue', previous_response_id: id, max_output_tokens: 8 }),
  },
  {
    name: 'stored response: previous_response_id of a streamed POST /v1/responses',
    create: storedResponse,
    missing: (id) => sameShape('resp_', id),
    call: (key, id) =>
      json('/v1/responses', bearer(key), { model: 'sandbox-gpt', input: 'continue', previous_response_id: id, max_output_tokens: 8, stream: true }),
  },
  // No tenant-facing route names an API key by id (key-context names only the calling key); a key id
  // presented as the key itself must read as any unknown key.
  {
    name: 'API key id presented as the bearer key',
    create: async (owner) => ({ id: owner.id, ownerKey: null }),
    missing: () => randomUUID(),
    call: (key, id) => http('GET', `${base()}/v1/chatroom/key-context`, { headers: bearer(id) }),
  },
  {
    name: 'music task: GET /music/query/task?taskId=',
    create: musicTask,
    missing: (id) => sameShape('', id),
    call: (key, id) => http('GET', `${base()}/music/query/task?taskId=${id}`, { headers: bearer(key) }),
  },
  {
    name: 'music task as the source of POST /music/wav-generate',
    create: musicTask,
    missing: (id) => sameShape('', id),
    call: (key, id) =>
      json('/music/wav-generate', bearer(key), { taskId: id, audioId: musicAudio.get(id) ?? 'a1', callBackUrl: 'https://hooks.example.com/iso' }),
  },
  ...FILE_ROUTES.map(([name, call]): Resource => ({
    name,
    create: uploadedFile,
    missing: (id) => sameShape('file-', id),
    call,
  })),
  ...BATCH_ROUTES.map(([name, call]): Resource => ({
    name,
    create: createdBatch,
    missing: (id) => sameShape('batch_', id),
    call,
  })),
  ...ASSISTANT_ROUTES.map(([name, call]): Resource => ({ name, create: ownAssistant, missing: (id) => sameShape('asst_', id), call })),
  // A run's hold is sized from the thread's and the assistant's stored size: naming another tenant's large
  // one answers like a missing id, never the refusal a hold for its size would give.
  {
    name: "run hold: a large assistant's assistant_id of POST /oaic/v1/threads/{thread_id}/runs",
    create: ownLargeAssistant,
    missing: (id) => sameShape('asst_', id),
    call: (key, id) => runWith(key, { assistant: id }),
  },
  {
    name: 'run hold: a large thread of POST /oaic/v1/threads/{id}/runs',
    create: ownLargeThread,
    missing: (id) => sameShape('thread_', id),
    call: (key, id) => runWith(key, { thread: id }),
  },
  ...THREAD_ROUTES.map(([name, call]): Resource => ({ name, create: ownThread, missing: (id) => sameShape('thread_', id), call })),
  ...MEDIA_TASKS.map(([name, path, create, idOf]): Resource => ({
    name: `media task: GET ${path}/{id}`,
    create: async (owner) => {
      const created = await json(create.path, bearer(owner.key), create.body);
      expect(created.status).toBe(200);
      return { id: idOf(created.body as Record<string, never>), ownerKey: owner.key };
    },
    missing: (id) => sameShape(name, id),
    call: (key, id) => http('GET', `${base()}${path}/${id}`, { headers: bearer(key) }),
  })),
  ...MODEL_ROUTES.map(([route, call]): Resource => {
    const model = privateModel();
    return {
      name: `private model: ${route}`,
      create: async () => ({ id: model.id, ownerKey: (await model.grant('iso-model-owner')).key }),
      missing: (id) => sameShape('private-', id),
      call,
    };
  }),
];

/** What an answer tells the caller, with the named id (and the request's own id) replaced so two ids' answers compare. */
function observable(result: HttpResult, id: string) {
  // The dsc and nativemedia dialects carry the request's own id in the body: it differs per request.
  const requestId = String(result.headers['x-request-id']);
  return { status: result.status, contentType: result.headers['content-type'], body: result.text.split(id).join('<id>').split(requestId).join('<request-id>') };
}

describe('tenant isolation matrix: naming another tenant’s resource answers like naming a missing one', () => {
  let owner: TenantWithKey;
  let other: TenantWithKey;

  beforeAll(async () => {
    owner = await createTenantWithKey({ label: 'iso-owner' });
    // Enough for the other tenant's own small runs, far too little for a hold on the owner's large objects.
    other = await createTenantWithKey({ label: 'iso-other', balance: '0.10' });
  });

  it.each(RESOURCES.map((resource) => [resource.name, resource] as const))('%s', async (_name, resource) => {
    const { id, ownerKey } = await resource.create(owner);
    const missing = resource.missing(id);
    expect(missing).not.toBe(id);
    if (ownerKey !== null) expect((await resource.call(ownerKey, id)).status).toBe(200);
    const foreign = await resource.call(other.key, id);
    const absent = await resource.call(other.key, missing);
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(observable(foreign, id)).toEqual(observable(absent, missing));
  });
});

/** The development secret links were once signed with when SIGNED_URL_SECRET was unset, and that former token form. */
const FORMER_DEV_SECRET = 'gateway-dev-signed-url-secret';
function formerDevToken(key: string): string {
  const expiry = Math.floor(Date.now() / 1000) + 3600;
  const mac = createHmac('sha256', FORMER_DEV_SECRET).update(`${key}\n${expiry}`).digest('base64url');
  return `${Buffer.from(key).toString('base64url')}.${expiry}.${mac}`;
}

/** The object key under which an id's bytes are stored (`<prefix>/<tenant>/<id>[/<name>]`), found in the e2e storage folder. */
async function storedKeyOf(prefix: string, id: string): Promise<string> {
  const root = path.join(e2eEnv().GW_E2E_STORAGE_DIR, prefix);
  for (const tenant of await readdir(root)) {
    const entries = await readdir(path.join(root, tenant));
    if (!entries.includes(id)) continue;
    if (prefix === 'files') return `${prefix}/${tenant}/${id}`;
    const names = (await readdir(path.join(root, tenant, id))).filter((name) => !name.endsWith('.meta'));
    return `${prefix}/${tenant}/${id}/${names[0]}`;
  }
  throw new Error(`no stored object of ${id} under ${root}`);
}

const signedUrl = (token: string) => `${base()}/files/signed/${token}`;

describe('signed route: a link the gateway did not hand out answers like a nonsense token', () => {
  let owner: TenantWithKey;
  let ownerLink: string;
  let musicKey: string;
  let uploadKey: string;

  beforeAll(async () => {
    owner = await createTenantWithKey({ label: 'iso-signed' });
    const { id: taskId } = await musicTask(owner);
    const view = await http('GET', `${base()}/music/query/task?taskId=${taskId}`, { headers: bearer(owner.key) });
    ownerLink = (view.body as { data: { response: { sunoData: Array<{ audioUrl: string }> } } }).data.response.sunoData[0]!.audioUrl;
    musicKey = await storedKeyOf('music', taskId);
    uploadKey = await storedKeyOf('files', (await uploadedFile(owner)).id);
  });

  it('serves a link it handed out, with no key, as an inert result whose token names neither tenant nor task', async () => {
    const served = await http('GET', ownerLink);
    expect(served.status).toBe(200);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe('sandbox');
    const token = ownerLink.split('/files/signed/')[1]!;
    for (const part of musicKey.split('/')) expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain(part);
  });

  const ROWS: Array<[string, () => string]> = [
    ["another tenant's upload, signed with the former development secret", () => formerDevToken(uploadKey)],
    ["a music result's .meta sidecar, signed with the former development secret", () => formerDevToken(`${musicKey}.meta`)],
    ['a music result, signed with the former development secret', () => formerDevToken(musicKey)],
    [
      'a handed-out link with one character of its token changed',
      () => {
        const token = ownerLink.split('/files/signed/')[1]!;
        const at = Math.floor(token.length / 2);
        return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
      },
    ],
  ];

  it.each(ROWS)('%s', async (_name, forge) => {
    const forged = await http('GET', signedUrl(forge()));
    const nonsense = await http('GET', signedUrl(randomBytes(90).toString('base64url')));
    expect(forged.status).toBe(403);
    const view = (result: HttpResult) => ({ status: result.status, contentType: result.headers['content-type'], body: JSON.parse(result.text) as unknown });
    expect(view(forged)).toEqual(view(nonsense));
  });
});
