import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "../errors";

/** application/json, application/*+json, with or without parameters (charset). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * Parses a JSON body with a shared contract schema. The body must be declared JSON: any other Content-Type
 * (text/plain, a form) is 415 ERR_UNSUPPORTED_CONTENT_TYPE, never parsed as JSON, and so is a body with no
 * Content-Type; an empty undeclared body or a malformed JSON one is ERR_VALIDATION. The body's size is capped
 * before this (body-limit.ts).
 */
export const parseJson = async <S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> => {
  const type = c.req.header("content-type");
  if (type !== undefined && !JSON_TYPE.test(type)) throw new AppError("ERR_UNSUPPORTED_CONTENT_TYPE");
  let text: string;
  try {
    text = await c.req.text();
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError("ERR_VALIDATION");
  }
  if (type === undefined && text.length > 0) throw new AppError("ERR_UNSUPPORTED_CONTENT_TYPE");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError("ERR_VALIDATION");
  }
  return schema.parse(raw);
};

export const parseQuery = <S extends z.ZodType>(c: Context, schema: S): z.infer<S> => schema.parse(c.req.query());

/** A positive integer path parameter; anything else is a not-found of the given code. */
export const idParam = (c: Context, name: string, notFound: ConstructorParameters<typeof AppError>[0] = "ERR_NOT_FOUND"): number => {
  const value = c.req.param(name) ?? "";
  if (!/^\d{1,12}$/.test(value)) throw new AppError(notFound);
  return Number(value);
};
