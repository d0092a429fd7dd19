import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "../errors";

/** Parses a JSON body with a shared contract schema; a body that is not JSON is ERR_VALIDATION. */
export const parseJson = async <S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> => {
  let raw: unknown;
  try {
    raw = await c.req.json();
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
