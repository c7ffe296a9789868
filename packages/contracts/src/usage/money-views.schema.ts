import { z } from 'zod';
import { InputSlug, InputTime } from '../inputs/input-text.schema';
import { MicrosString } from '../money';

/** Ledger kinds as an operator names them; `topup` covers operator credits, `hold` the reservations. */
export const LEDGER_VIEW_KINDS = ['topup', 'hold', 'settle', 'release', 'refund', 'overrun', 'plan_grant'] as const;
export const LedgerViewKind = z.enum(LEDGER_VIEW_KINDS);
export type LedgerViewKind = z.infer<typeof LedgerViewKind>;

/** A page of a tenant's ledger, oldest first; `cursor` is the last entry id of the page before. */
export const LedgerRequest = z
  .object({
    tenant: InputSlug,
    since: InputTime.optional(),
    kind: LedgerViewKind.optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z
      .string()
      .regex(/^\d{1,18}$/, 'expected a ledger entry id')
      .optional(),
  })
  .strict();
export type LedgerRequest = z.infer<typeof LedgerRequest>;

export const LedgerRow = z.object({
  id: z.string(),
  at: z.string(),
  /** The kind as stored (reserve, settle, release, overrun, topup, plan_grant, ...). */
  kind: z.string(),
  pool: z.string(),
  amountMicros: MicrosString,
  amount: z.string(),
  /** The request, task, batch line or run the entry belongs to; null for an operator's entry. */
  requestId: z.string().nullable(),
  /** The usage record of that id, when there is one: its kind and the task, batch or run it belongs to. */
  usageKind: z.string().nullable(),
  subjectId: z.string().nullable(),
  note: z.string().nullable(),
  /** The balance after this entry (balance pool: every earlier entry summed); null for quota entries. */
  balanceMicros: MicrosString.nullable(),
  balance: z.string().nullable(),
});
export type LedgerRow = z.infer<typeof LedgerRow>;

export const LedgerPage = z.object({ tenant: z.string(), rows: z.array(LedgerRow), nextCursor: z.string().nullable() });
export type LedgerPage = z.infer<typeof LedgerPage>;

export const ReconcileRequest = z
  .object({ tenant: InputSlug.optional(), all: z.boolean().optional() })
  .strict()
  .refine((r) => (r.tenant === undefined) !== (r.all === undefined || r.all === false), { message: 'give either tenant or all', path: ['tenant'] });
export type ReconcileRequest = z.infer<typeof ReconcileRequest>;

/** One property of a tenant's books that does not hold, with the amounts and ids involved. */
export const ReconcileFinding = z.object({
  check: z.enum(['balance', 'stored_balance', 'charge_without_usage', 'usage_cost_mismatch', 'hold_overdue', 'quota', 'budget']),
  message: z.string(),
  differenceMicros: MicrosString.optional(),
  ids: z.array(z.string()),
});
export type ReconcileFinding = z.infer<typeof ReconcileFinding>;

export const ReconcileTenant = z.object({
  tenant: z.string(),
  ok: z.boolean(),
  /** Σ of the tenant's balance-pool ledger entries, the stored balance and the live wallet balance. */
  ledgerMicros: MicrosString,
  storedMicros: MicrosString,
  walletMicros: MicrosString.nullable(),
  findings: z.array(ReconcileFinding),
});
export type ReconcileTenant = z.infer<typeof ReconcileTenant>;

export const ReconcileReport = z.object({ ok: z.boolean(), checked: z.number().int(), tookMs: z.number().int(), tenants: z.array(ReconcileTenant) });
export type ReconcileReport = z.infer<typeof ReconcileReport>;
