import type { Readable } from "node:stream";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { MediaStore } from "./media-store.port";

/** The media store in AWS: the media bucket, by key. */
export const createS3MediaStore = (bucket: string, region: string): MediaStore => {
  const s3 = new S3Client({ region });
  return {
    async put(key, bytes, mimetype) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: mimetype }));
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
