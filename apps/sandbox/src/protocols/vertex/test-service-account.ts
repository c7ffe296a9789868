// The sandbox's test service account: a key pair made for the sandbox alone, never a real credential, kept in
// the service-account JSON Google hands out so clients sign their token assertions exactly as in production.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import key from './fixtures/test-only-service-account.json';

export const ServiceAccountKey = z
  .object({
    type: z.literal('service_account'),
    project_id: z.string().min(1),
    private_key_id: z.string().min(1),
    private_key: z.string().min(1),
    client_email: z.string().min(1),
    token_uri: z.url(),
  })
  .loose();
export type ServiceAccountKey = z.infer<typeof ServiceAccountKey>;

/** The test-only key file, for clients that read one (`keyFile`, `GOOGLE_APPLICATION_CREDENTIALS`). */
export const VERTEX_TEST_SERVICE_ACCOUNT_FILE = join(__dirname, 'fixtures', 'test-only-service-account.json');
export const VERTEX_TEST_SERVICE_ACCOUNT: ServiceAccountKey = ServiceAccountKey.parse(key);

/** What the token endpoint knows of an account: the public half of its key and the audience its assertions name. */
export interface TrustedAccount {
  email: string;
  publicKey: KeyObject;
  tokenUri: string;
}

export function trustedAccountOf(account: ServiceAccountKey): TrustedAccount {
  return { email: account.client_email, publicKey: createPublicKey(account.private_key), tokenUri: account.token_uri };
}
