import * as z from "zod";
import { pageNumberParam } from "../../contracts/http/paging";
import { idList, optionalId } from "../../contracts/body-values";
import { NAME_MAX, NAME_MIN, PASSWORD_MAX, PASSWORD_MIN } from "../../constants/business";

const base = {
  name: z.string().trim().min(NAME_MIN, "Too Short!").max(NAME_MAX, "Too Long!"),
  email: z.string().trim().toLowerCase().min(1, "Required").email("Invalid email").max(200),
  profile: z.enum(["admin", "user", "supervisor"]).optional(),
  queueIds: idList(200).optional(),
  whatsappId: optionalId(),
  allTicket: z.enum(["enabled", "desabled"]).optional(),
};

/** POST /users: the user modal's fields (spec 2 section 5). */
export const userCreateSchema = z.object({
  ...base,
  password: z.string().min(PASSWORD_MIN, "Too Short!").max(PASSWORD_MAX, "Too Long!"),
});
export type UserCreateInput = z.infer<typeof userCreateSchema>;

/** PUT /users/{id}: an empty password keeps the current one. */
export const userUpdateSchema = z.object({
  ...base,
  name: base.name.optional(),
  email: base.email.optional(),
  password: z.union([z.literal(""), z.string().min(PASSWORD_MIN, "Too Short!").max(PASSWORD_MAX, "Too Long!")]).optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

export const userListQuerySchema = z.object({
  searchParam: z.string().max(100).optional().default(""),
  pageNumber: pageNumberParam,
});
