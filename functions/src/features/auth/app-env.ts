import type { HttpEnv } from "../../platform/http/middleware";
import type { AuthContext } from "./auth.service";

/** The Hono env of every route: platform's HttpEnv with this house's principal. */
export type AppEnv = HttpEnv<AuthContext>;
