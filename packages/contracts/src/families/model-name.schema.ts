import { z } from 'zod';

/**
 * The model a client names in a request body. Catalog ids are at most 128 characters; the bound keeps a
 * refusal from echoing an arbitrarily long name back (a not-found answer quotes the name).
 */
export const MAX_MODEL_NAME_LENGTH = 256;
export const RequestModelName = z.string().min(1).max(MAX_MODEL_NAME_LENGTH);
