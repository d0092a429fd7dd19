import { Hono } from "hono";
import * as z from "zod";
import { optionalId } from "@atende/shared/contracts/body-values";
import { userCreateSchema, userListQuerySchema, userUpdateSchema } from "@atende/shared/domain/users/users";
import type { Guards } from "../../platform/modules/feature-module";
import type { UsersService } from "./users.service";
import { requireAdmin } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { idParam, parseJson, parseQuery } from "../../platform/http/parse";

const companyQuery = z.object({ companyId: z.coerce.number().int().positive().optional() });
const createBody = userCreateSchema.extend({ companyId: optionalId().transform((v) => v ?? undefined) });

export const usersRoutes = (users: UsersService, guards: Guards) => {
  const app = new Hono<AppEnv>();
  app.use("*", guards.auth);
  app.get("/", async (c) => {
    const q = parseQuery(c, userListQuerySchema);
    return c.json(await users.list(c.get("auth"), q.searchParam, q.pageNumber));
  });
  app.get("/list", async (c) => c.json(await users.listAll(c.get("auth"), parseQuery(c, companyQuery).companyId)));
  app.get("/:id", async (c) => c.json(await users.get(c.get("auth"), idParam(c, "id", "ERR_NO_USER_FOUND"))));
  app.post("/", async (c) => c.json(await users.create(c.get("auth"), await parseJson(c, createBody)), 201));
  app.put("/:id", async (c) => {
    const id = idParam(c, "id", "ERR_NO_USER_FOUND");
    return c.json(await users.update(c.get("auth"), id, await parseJson(c, userUpdateSchema)));
  });
  app.delete("/:id", requireAdmin, async (c) => {
    await users.remove(c.get("auth"), idParam(c, "id", "ERR_NO_USER_FOUND"));
    return c.json({ message: "User deleted" });
  });
  return app;
};
