import { z } from "zod";
export const schema = z.object({ a: z.string() });
export const createHeavy = () => ({ parse: (x: unknown) => schema.parse(x), big: "HEAVYHEAVYHEAVY" });
