import { z } from 'zod';
import { AlertEventPattern } from '../alerts/alert-settings.schema';
import { printableText } from '../inputs/input-text.schema';

/** Where the signed-in tenant receives its account alerts, and which types (patterns like `budget.*`). */
export const ConsoleAlertEndpointRequest = z
  .object({
    url: printableText(2048).min(1),
    events: z.array(AlertEventPattern).min(1).max(10).default(['*']),
  })
  .strict();
export type ConsoleAlertEndpointRequest = z.input<typeof ConsoleAlertEndpointRequest>;

export const ConsoleAlertsQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }).strict();
export type ConsoleAlertsQuery = z.input<typeof ConsoleAlertsQuery>;
