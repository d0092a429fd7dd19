import { expect, it } from "vitest";
import { resolveHostId } from "./host-identity";

const arn = "arn:aws:ecs:us-east-1:123456789012:task/atende-cluster/0a1b2c3d4e5f";

it("takes SESSION_HOST_ID (or the former HOST_ID) as given", async () => {
  const never = (() => Promise.reject(new Error("not called"))) as unknown as typeof fetch;
  expect(await resolveHostId({ SESSION_HOST_ID: "host-2" }, never)).toBe("host-2");
  expect(await resolveHostId({ HOST_ID: "local" }, never)).toBe("local");
  expect(await resolveHostId({}, never)).toBeUndefined();
});

it("reads the ECS task ARN from the task metadata endpoint, trying again after a failure", async () => {
  const calls: string[] = [];
  const fake = (async (url: string) => {
    calls.push(url);
    if (calls.length === 1) return new Response("busy", { status: 500 });
    return Response.json({ Cluster: "atende-cluster", TaskARN: arn });
  }) as unknown as typeof fetch;
  expect(await resolveHostId({ ECS_CONTAINER_METADATA_URI_V4: "http://169.254.170.2/v4/abc" }, fake)).toBe(arn);
  expect(calls).toEqual(["http://169.254.170.2/v4/abc/task", "http://169.254.170.2/v4/abc/task"]);
});
