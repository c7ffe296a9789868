import { z } from 'zod';

const Micros = z.string().regex(/^\d+$/);

/** How much of a priced unit a task asks for or produced: seconds of video, images, tasks. */
export const TaskQuantity = z.object({
  seconds: z.number().nonnegative().optional(),
  images: z.number().int().nonnegative().optional(),
  tasks: z.number().int().nonnegative().optional(),
});
export type TaskQuantity = z.infer<typeof TaskQuantity>;

/**
 * A task's billing hold as the task row stores it (JSON), so that whichever process ends the task can
 * settle or release it: the hold's id in the wallet, the prices it was taken at, and what was held.
 */
export const TaskHold = z.object({
  holdId: z.string().min(1),
  tenantId: z.string().min(1),
  perRequest: z.boolean(),
  prices: z.object({ perSecond: Micros, perImage: Micros, perTask: Micros }),
  heldMicros: Micros,
});
export type TaskHold = z.infer<typeof TaskHold>;
