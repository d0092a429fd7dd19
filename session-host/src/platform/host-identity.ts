/**
 * The host's identity (docs/adr/0070): `SESSION_HOST_ID` when set (locally `host-<n>`, set by the local runner;
 * `HOST_ID` is the former name), else in AWS the ECS task ARN from the task metadata endpoint
 * (`ECS_CONTAINER_METADATA_URI_V4` + `/task`), else nothing (config.ts draws a random id).
 */
export const resolveHostId = async (env: Record<string, string | undefined>, fetchFn: typeof fetch = fetch): Promise<string | undefined> => {
  const given = env.SESSION_HOST_ID ?? env.HOST_ID;
  if (given) return given;
  const uri = env.ECS_CONTAINER_METADATA_URI_V4;
  if (!uri) return undefined;
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const res = await fetchFn(`${uri}/task`, { signal: AbortSignal.timeout(2_000) });
      if (!res.ok) throw new Error(`task metadata answered ${res.status}`);
      const arn = ((await res.json()) as { TaskARN?: unknown }).TaskARN;
      if (typeof arn === "string" && arn) return arn;
      throw new Error("task metadata without TaskARN");
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
    }
  }
  // two tasks must never share an id: refuse to start rather than guess
  throw new Error(`no host identity from the ECS task metadata: ${String(lastError)}`);
};
