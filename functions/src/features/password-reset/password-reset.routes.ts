import { Hono } from "hono";
import * as z from "zod";
import type { PasswordResetService } from "./password-reset.service";
import { clientAddress } from "../../platform/http/middleware";
import type { AppEnv } from "../../platform/http/app-env";
import { parseJson } from "../../platform/http/parse";

const email = z.string().trim().toLowerCase().email("Invalid email").max(200);
const resetBody = z.object({ email, token: z.string().max(20), newPassword: z.string().max(200) });

/**
 * Public: POST /forgetpassword/{email} and POST /resetpasswords/{email}/{token}/{newPassword} (the spec's shape).
 * POST /resetpasswords with a JSON body does the same without secrets in the path; nothing here logs paths.
 */
export const passwordResetRoutes = (passwordReset: PasswordResetService) => {
  const app = new Hono<AppEnv>();
  app.post("/forgetpassword/:email", async (c) =>
    c.json(await passwordReset.requestCode(email.parse(c.req.param("email")), clientAddress(c))),
  );
  app.post("/resetpasswords/:email/:token/:newPassword", async (c) => {
    const input = resetBody.parse({ email: c.req.param("email"), token: c.req.param("token"), newPassword: c.req.param("newPassword") });
    await passwordReset.reset(input.email, input.token, input.newPassword, clientAddress(c));
    return c.json({ message: "Senha redefinida com sucesso." });
  });
  app.post("/resetpasswords", async (c) => {
    const input = await parseJson(c, resetBody);
    await passwordReset.reset(input.email, input.token, input.newPassword, clientAddress(c));
    return c.json({ message: "Senha redefinida com sucesso." });
  });
  return app;
};
