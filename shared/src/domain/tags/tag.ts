import { z } from "zod";

export const tagCreateSchema = z.object({
  name: z.string().trim().min(1, "Required").max(50, "Too Long!"),
  color: z.string().trim().max(20).optional(),
  kanban: z.union([z.literal(0), z.literal(1)]).optional(),
});
export const tagSyncSchema = z.object({
  ticketId: z.number().int().positive(),
  tags: z.array(z.object({ id: z.number().int().positive() }).passthrough()).max(50),
});

export type Tag = { id: number; companyId: number; name: string; color: string; kanban: 0 | 1; createdAt: string; updatedAt: string };
