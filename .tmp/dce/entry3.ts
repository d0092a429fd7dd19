import { createHeavy } from "./heavy";
import { ROLE } from "./roles3";
const h = ROLE === "api" ? createHeavy() : undefined;
export const handler = () => h?.big ?? "light";
