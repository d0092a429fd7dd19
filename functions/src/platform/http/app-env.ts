import type { AuthContext } from "@atende/shared/domain/auth/principal";
import type { HttpEnv } from "./middleware";

/** The Hono env of every route: platform's HttpEnv with this house's principal (shared/domain/auth/principal). */
export type AppEnv = HttpEnv<AuthContext>;
