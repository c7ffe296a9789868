/**
 * What e2e specs need to talk to the running stack: its URLs, an admin client, tenants with keys (unique
 * slugs, so spec files never collide), the official SDK clients configured the way the README says.
 */
import { randomBytes } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import type { BillingMode, GatewayConfigInput, KeyCreated } from '@gateway/contracts';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { request } from 'undici';
import { AdminClient } from '@gateway/cli';
import { e2eEnv } from './e2e-env';

export { e2eEnv } from './e2e-env';

export function baseUrl(replica: 1 | 2 = 1): string {
  return replica === 1 ? e2eEnv().GW_E2E_BASE_URL : e2eEnv().GW_E2E_BASE_URL_2;
}

export function adminClient(): AdminClient {
  return new AdminClient({ url: e2eEnv().GW_E2E_ADMIN_URL, token: e2eEnv().GW_E2E_ADMIN_TOKEN });
}

/** A slug no other spec file or run will produce. */
export function uniqueSlug(label = 't'): string {
  return `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`.toLowerCase();
}

export interface TenantOptions {
  label?: string;
  billing?: BillingMode;
  plan?: string;
  expires?: string;
  /** Private model ids this tenant may see (granted through `apply`). */
  models?: string[];
  featureControls?: Record<string, boolean>;
  keyName?: string;
  /** Prepaid balance of a pay-as-you-go tenant, as a decimal (default 100.00); null for none. */
  balance?: string | null;
  /** Extra catalog entries applied together with the tenant (e.g. its private models). */
  catalog?: Pick<GatewayConfigInput, 'providers' | 'models' | 'plans'>;
}

export interface TenantWithKey extends KeyCreated {
  slug: string;
}

/** Creates a tenant (through `apply` when it needs models, feature controls or catalog entries) and one key. */
export async function createTenantWithKey(options: TenantOptions = {}): Promise<TenantWithKey> {
  const admin = adminClient();
  const slug = uniqueSlug(options.label);
  const tenant = { slug, billing: options.billing ?? 'payg', plan: options.plan, expires: options.expires };
  if (options.models || options.featureControls || options.catalog) {
    await admin.apply({
      ...options.catalog,
      tenants: [{ ...tenant, models: options.models ?? [], featureControls: options.featureControls ?? {} }],
    });
  } else {
    await admin.createTenant(tenant);
  }
  // Every request is billed: a pay-as-you-go tenant needs a prepaid balance to be served at all.
  if (tenant.billing === 'payg' && options.balance !== null) await admin.topup({ tenant: slug, amount: options.balance ?? '100.00' });
  const key = await admin.createKey({ tenant: slug, name: options.keyName ?? 'e2e' });
  return { ...key, slug };
}

export function openaiClient(key: string, base = baseUrl()): OpenAI {
  return new OpenAI({ apiKey: key, baseURL: `${base}/oaic/v1`, maxRetries: 0 });
}

export function anthropicClient(key: string, base = baseUrl()): Anthropic {
  return new Anthropic({
    apiKey: null,
    baseURL: `${base}/msgc`,
    defaultHeaders: { 'x-api-key': key, 'msgc-version': '2023-06-01' },
    maxRetries: 0,
  });
}

export function googleClient(key: string, base = baseUrl()): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: key,
    httpOptions: { baseUrl: `${base}/genc`, apiVersion: 'v1beta', headers: { Authorization: `Bearer ${key}` } },
  });
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text: string;
}

/** A plain HTTP call for what the SDKs hide (exact headers, status codes, error bodies). */
export async function http(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { headers?: Record<string, string>; json?: unknown } = {},
): Promise<HttpResult> {
  const headers = { ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await request(url, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
  const text = await response.body.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body, text };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export const msgcHeaders = (key: string) => ({ 'x-api-key': key, 'msgc-version': '2023-06-01' });
