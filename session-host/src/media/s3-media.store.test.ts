import { Readable } from "node:stream";
import { S3Client } from "@aws-sdk/client-s3";
import { expect, it } from "vitest";
import { createS3MediaStore } from "./s3-media.store";

/** S3's side of a multipart upload, as the SDK's commands reach it (no bucket here: the client's send is ours). */
const fakeS3 = () => {
  const calls: { name: string; bytes?: number; contentType?: string }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const client = new S3Client({ region: "us-east-1", credentials: { accessKeyId: "x", secretAccessKey: "y" } });
  client.send = (async (cmd: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const name = cmd.constructor.name;
    if (name === "UploadPartCommand") {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const body = cmd.input.Body as Uint8Array;
      calls.push({ name, bytes: body.byteLength });
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return { ETag: `"e${calls.length}"` };
    }
    calls.push({ name, contentType: cmd.input.ContentType as string | undefined });
    if (name === "CreateMultipartUploadCommand") return { UploadId: "U1" };
    return {};
  }) as never;
  return { client, calls, mostInFlight: () => mostInFlight };
};

it("stores a 12 MiB stream as a multipart upload of 5 MiB parts, two at most in flight, with the sniffed type", async () => {
  const s3 = fakeS3();
  const store = createS3MediaStore("media", "us-east-1", s3.client);
  const body = Readable.from((function* () {
    for (let i = 0; i < 12 * 16; i++) yield Buffer.alloc(64 * 1024, i);
  })());
  await store.putStream!("4/2026/11/abc-video.mp4", body, "video/mp4");
  expect(s3.calls[0]).toMatchObject({ name: "CreateMultipartUploadCommand", contentType: "video/mp4" });
  const parts = s3.calls.filter((c) => c.name === "UploadPartCommand").map((c) => c.bytes);
  expect(parts.sort()).toEqual([2 * 1024 * 1024, 5 * 1024 * 1024, 5 * 1024 * 1024].sort());
  expect(s3.mostInFlight()).toBeLessThanOrEqual(2);
  expect(s3.calls.at(-1)!.name).toBe("CompleteMultipartUploadCommand");
});

it("a stream that fails mid-way aborts the multipart upload (no parts left behind)", async () => {
  const s3 = fakeS3();
  const store = createS3MediaStore("media", "us-east-1", s3.client);
  const body = Readable.from((async function* () {
    for (let i = 0; i < 100; i++) {
      if (i === 90) throw new Error("over the limit");
      yield Buffer.alloc(64 * 1024, i);
    }
  })());
  await expect(store.putStream!("4/2026/11/abc-big.mp4", body, "video/mp4")).rejects.toThrow("over the limit");
  expect(s3.calls.map((c) => c.name)).toContain("AbortMultipartUploadCommand");
});
