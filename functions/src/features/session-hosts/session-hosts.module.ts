import { Hono } from "hono";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { SESSION_HOST_REGISTRY_PK, SESSION_HOST_STALE_MS_DEFAULT, sessionHostSchema, type SessionHostResponse } from "@atende/shared/contracts/http/session-hosts";
import type { Db } from "../../platform/db/client";
import type { AppEnv } from "../../platform/http/app-env";
import { requireSuper } from "../../platform/http/middleware";
import type { FeatureModule, Guards } from "../../platform/modules/feature-module";

/**
 * The session host fleet as the platform operator sees it (docs/adr/0070): the live hosts' registry items, written
 * by each session host on its heartbeat (`SESSIONHOST#REGISTRY`). Platform-wide infrastructure, no company's data
 * beyond ids: operator ("super") only.
 */
export const createSessionHostsService = (deps: { db: Db; clock: () => Date }) => ({
  async listLive(): Promise<SessionHostResponse[]> {
    const { db } = deps;
    const items: SessionHostResponse[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.doc.send(
        new QueryCommand({ TableName: db.tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": SESSION_HOST_REGISTRY_PK }, ExclusiveStartKey: start }),
      );
      for (const raw of page.Items ?? []) {
        const parsed = sessionHostSchema.safeParse(raw);
        if (parsed.success) items.push(parsed.data);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    const since = deps.clock().getTime() - SESSION_HOST_STALE_MS_DEFAULT;
    return items.filter((h) => h.lastHeartbeatAt >= since).sort((a, b) => a.hostId.localeCompare(b.hostId));
  },
});
export type SessionHostsService = ReturnType<typeof createSessionHostsService>;

export const createSessionHostsModule = (deps: { db: Db; clock: () => Date; guards: Guards }): FeatureModule<SessionHostsService> => {
  const service = createSessionHostsService(deps);
  const app = new Hono<AppEnv>();
  app.get("/", deps.guards.auth, requireSuper, async (c) => c.json(await service.listLive()));
  return { service, routes: [{ path: "/session-hosts", app }] };
};
