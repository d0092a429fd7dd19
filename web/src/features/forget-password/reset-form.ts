import * as z from "zod";
import { resetPasswordSchema } from "@atende/shared/domain/auth/auth";

export const emailStepSchema = z.object({ email: z.string().trim().min(1, "Required").email("Invalid email") });

/** Step 2 (spec 2 section 5): code, new password by the reset rule, confirmation equal to it. */
export const resetStepSchema = emailStepSchema
  .extend({
    token: z.string().trim().min(1, "Campo obrigatório"),
    newPassword: z.string().min(1, "Campo obrigatório").refine((v) => resetPasswordSchema.safeParse(v).success, "passwordRule"),
    confirmPassword: z.string().min(1, "Campo obrigatório"),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "As senhas não correspondem" });
export type ResetStepValues = z.infer<typeof resetStepSchema>;
