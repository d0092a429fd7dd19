import { createHeavy } from "./heavy";
declare const __ATENDE_LAMBDA_ROLE__: string;
const h = __ATENDE_LAMBDA_ROLE__ === "api" ? createHeavy() : undefined;
export const handler = () => h?.big ?? "light";
