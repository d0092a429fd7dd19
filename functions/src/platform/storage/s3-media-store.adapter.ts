import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { MediaStore } from "./media-store.port";
import { traced } from "../tracer";

export const createS3MediaStore = (bucket: string, region: string): MediaStore => {
  const s3 = traced(new S3Client({ region }));
  return {
    async put(key, body, mimetype) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: mimetype }));
    },
    async get(key) {
      try {
        const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const body = await out.Body?.transformToByteArray();
        return body ? { body, mimetype: out.ContentType ?? "application/octet-stream" } : null;
      } catch (e) {
        if ((e as Error).name === "NoSuchKey") return null;
        throw e;
      }
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
};
