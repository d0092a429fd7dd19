import type { Readable } from "node:stream";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { MediaStore } from "./media-store.port";

/** The media store in AWS: the media bucket, by key. */
export const createS3MediaStore = (bucket: string, region: string, client?: S3Client): MediaStore => {
  const s3 = client ?? new S3Client({ region });
  return {
    async put(key, bytes, mimetype) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: mimetype }));
    },
    async putStream(key, body, mimetype) {
      // a multipart upload of 5 MiB parts, two in flight: at most ~10 MiB of one media in memory; a failure
      // aborts the upload (no parts left behind)
      await new Upload({ client: s3, params: { Bucket: bucket, Key: key, Body: body, ContentType: mimetype }, partSize: 5 * 1024 * 1024, queueSize: 2, leavePartsOnError: false }).done();
    },
    async get(key) {
      const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await (out.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
    },
    async size(key) {
      return (await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ContentLength ?? 0;
    },
    async stream(key) {
      return (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body as Readable;
    },
  };
};
