import { createHeavy } from "./heavy";
import { runsHeavy } from "./roles";
const h = runsHeavy ? createHeavy() : undefined;
export const handler = () => h?.big ?? "light";
