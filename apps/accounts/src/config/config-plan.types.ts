import type { StoredModelPrices } from '../catalog/stored-prices';
import type { ApplyResult, BillingMode, CacheSettings, StoredProviderSettings, TenantLimitsConfig } from '@gateway/contracts';

/** Plain rows the apply planner compares; the repository maps them to and from Prisma. */
export interface ProviderRow {
  id: string;
  protocol: string;
  baseUrl: string;
  apiKey: string | null;
  apiKeyEnv: string | null;
  settings: StoredProviderSettings | null;
}

export interface ModelRow extends StoredModelPrices {
  id: string;
  displayName: string;
  capability: string;
  isPublic: boolean;
  createdAt: Date;
  cacheHitMicrosPerMTok: bigint;
  defaultMaxTokens: number;
}

export interface ChannelRow {
  id: string;
  modelId: string;
  providerId: string;
  upstreamModel: string;
  priority: number;
  weight: number;
  nativeBatch: boolean;
  assistants: boolean;
  callbacks: boolean;
}

export interface PlanRow {
  name: string;
  quotaMicros: bigint | null;
  quotaRequests: number | null;
  periodSeconds: number;
}

export interface TenantRow {
  slug: string;
  name: string;
  billing: BillingMode;
  featureControls: Record<string, boolean>;
  /** Rate limits; a file without them keeps what is stored. */
  limits: TenantLimitsConfig | null;
  /** The response cache; a file without it keeps what is stored. */
  cache: CacheSettings | null;
}

export interface SubscriptionRow {
  kind: BillingMode;
  planName: string | null;
  expiresAt: Date | null;
}

export interface ProjectBudgetRow {
  amountMicros: bigint;
  period: string;
  mode: string;
  alertAt: number[];
}

/** A project's model lists, named by its tenant's slug and its own name. */
export interface ProjectListsRow {
  slug: string;
  name: string;
  models: string[];
  denyModels: string[];
}

export interface ProjectRow extends ProjectListsRow {
  budget: ProjectBudgetRow | null;
}

export interface CurrentTenant extends TenantRow {
  subscription: SubscriptionRow | null;
  grants: string[];
  /** Every stored project of the tenant, by name. */
  projects: Map<string, ProjectRow>;
}

/** What the database holds now, as far as the file can touch it. */
export interface CurrentState {
  providers: Map<string, ProviderRow>;
  models: Map<string, ModelRow>;
  channelsByModel: Map<string, ChannelRow[]>;
  plans: Map<string, PlanRow>;
  tenants: Map<string, CurrentTenant>;
}

export interface ApplyPlan {
  providers: { create: ProviderRow[]; update: ProviderRow[] };
  models: { create: ModelRow[]; update: ModelRow[] };
  channels: {
    create: Omit<ChannelRow, 'id'>[];
    update: Pick<ChannelRow, 'id' | 'priority' | 'weight' | 'nativeBatch' | 'assistants' | 'callbacks'>[];
    delete: string[];
  };
  plans: { create: PlanRow[]; update: PlanRow[] };
  tenants: { create: TenantRow[]; update: TenantRow[] };
  subscriptions: (SubscriptionRow & { slug: string })[];
  grants: { slug: string; add: string[]; remove: string[] }[];
  projects: { create: ProjectListsRow[]; update: ProjectListsRow[] };
  projectBudgets: { set: (ProjectBudgetRow & { slug: string; name: string })[]; remove: { slug: string; name: string }[] };
  /** Slugs of tenants whose cached keys or model lists must be dropped. */
  touchedTenants: string[];
  result: ApplyResult;
}

export function emptyPlan(): ApplyPlan {
  return {
    providers: { create: [], update: [] },
    models: { create: [], update: [] },
    channels: { create: [], update: [], delete: [] },
    plans: { create: [], update: [] },
    tenants: { create: [], update: [] },
    subscriptions: [],
    grants: [],
    projects: { create: [], update: [] },
    projectBudgets: { set: [], remove: [] },
    touchedTenants: [],
    result: { created: 0, updated: 0, unchanged: 0, changes: [] },
  };
}
