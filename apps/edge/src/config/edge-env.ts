import { UrlPolicyAllowHosts } from '@gateway/contracts';
import { BaseEnv } from '@gateway/platform';
import { z } from 'zod';

const Port = z.coerce.number().int().min(0).max(65535);
/** A size in bytes. */
const Bytes = z.coerce.number().int().positive();
/** Seconds, fractions allowed (tests use fractions of a second). */
const Seconds = z.coerce.number().positive();
/** A comma-separated list; empty items dropped. */
const NameList = z.string().transform((text) =>
  text
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== ''),
);

/** The edge's settings, validated at boot. ADMIN_TOKEN has no default: unset, the admin listener refuses every call. */
export const EdgeEnv = BaseEnv.extend({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: Port.default(8080),
  /** Internal hosts client URLs may point at after all (dev, test), comma-separated: exact names or *.suffix. */
  URL_POLICY_ALLOW_HOSTS: UrlPolicyAllowHosts,
  ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
  ADMIN_PORT: Port.default(8081),
  /** An empty value counts as unset, as launchers often export empty variables. */
  ADMIN_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  KEY_CACHE_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  /** How long an unknown key is remembered as unknown, so a flood of bad keys does not flood accounts. */
  NEGATIVE_KEY_CACHE_SECONDS: z.coerce.number().int().nonnegative().default(5),
  KEY_CACHE_MAX_ENTRIES: z.coerce.number().int().positive().default(50_000),
  NEGATIVE_KEY_CACHE_MAX_ENTRIES: z.coerce.number().int().positive().default(10_000),
  /** Unknown or expired keys one client address may present per minute before it gets 429; 0 turns the limit off. */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().nonnegative().default(60),
  /** Until the request line and headers are in. */
  HTTP_HEADERS_TIMEOUT_SECONDS: Seconds.default(10),
  /** Until the whole request body is in; the reply, streamed or not, is not counted. */
  HTTP_REQUEST_TIMEOUT_SECONDS: Seconds.default(60),
  /** A socket with no bytes either way; above the 300 s a stream may wait for its next event. */
  HTTP_IDLE_TIMEOUT_SECONDS: Seconds.default(330),
  /** An idle keep-alive connection between two requests: above every proxy's idle timeout in front (ALB and nginx: 60 s). */
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: Seconds.default(65),
  /**
   * Proxies whose X-Forwarded-For names the client address (addresses or CIDRs, comma-separated): the
   * failed-authentication limit counts per client, not per proxy. Empty: the socket's address counts.
   */
  TRUSTED_PROXIES: NameList.default([]),
  /** Host names the admin listener answers besides loopback ones (DNS-rebinding guard), comma-separated. */
  ADMIN_ALLOWED_HOSTS: NameList.default([]),
  /** Largest JSON body of a route whose body goes by claim check when it is over one bus message (chat families, assistants). */
  EDGE_RELAYED_BODY_MAX_BYTES: Bytes.default(32 * 1024 * 1024),
  /**
   * Largest JSON body of a route whose body travels in one bus message (batches, media, music, files):
   * never more than the server's max_payload less room for the envelope, which is also the default.
   */
  EDGE_BUS_BODY_MAX_BYTES: z.preprocess((v) => (v === '' ? undefined : v), Bytes.optional()),
  /** Largest body of the unauthenticated upstream callback POST /music/callbacks/{token}. */
  MUSIC_CALLBACK_MAX_BYTES: Bytes.default(64 * 1024),
  /** Multipart forms (uploads, audio, videos): text fields, and parts of any kind, one form may hold. */
  MULTIPART_MAX_FIELDS: z.coerce.number().int().positive().default(32),
  MULTIPART_MAX_PARTS: z.coerce.number().int().positive().default(64),
  /** Largest text field of a multipart form. */
  MULTIPART_FIELD_MAX_BYTES: Bytes.default(16 * 1024),
  /** Header lines one part of a multipart form may carry. */
  MULTIPART_MAX_PART_HEADERS: z.coerce.number().int().positive().default(16),
  /** Bytes of one part's header lines, line ends included. */
  MULTIPART_PART_HEADER_MAX_BYTES: Bytes.default(8 * 1024),
});
export type EdgeEnv = z.infer<typeof EdgeEnv>;
