import { z } from 'zod';

/** Where vendors call back at a task's end, at the edge: `PUBLIC_BASE_URL` + this path + the task's signed token. */
export const MEDIA_CALLBACK_PATH = '/media/callbacks/';

/** A media callback token: the task id, a dot, and the task's HMAC (base64url of 32 bytes). */
export const MediaCallbackToken = z.string().regex(/^(video|task|img)_[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/, 'a callback token');
export type MediaCallbackToken = z.infer<typeof MediaCallbackToken>;

/** The body is not relayed: a callback is only a hint, and the task's state is read from the upstream. */
export const MediaCallbackPayload = z.object({ token: MediaCallbackToken });
export type MediaCallbackPayload = z.infer<typeof MediaCallbackPayload>;

/** `accepted: false` for a token that names no task of this gateway (the edge answers 404). */
export const MediaCallbackReply = z.object({ accepted: z.boolean() });
export type MediaCallbackReply = z.infer<typeof MediaCallbackReply>;
