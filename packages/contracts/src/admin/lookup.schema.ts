import { z } from 'zod';
import { KeyView } from '../accounts/key.schema';
import { InputSlug } from '../inputs/input-text.schema';

/** `accounts.tenants.get`: one tenant by slug. */
export const TenantGetRequest = z.object({ slug: InputSlug }).strict();
export type TenantGetRequest = z.infer<typeof TenantGetRequest>;

/** `accounts.keys.list` answers with masked views only. */
export const KeyListReply = z.array(KeyView);
export type KeyListReply = z.infer<typeof KeyListReply>;
