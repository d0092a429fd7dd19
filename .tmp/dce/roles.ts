declare const __ATENDE_LAMBDA_ROLE__: string | undefined;
export const ROLE: string = typeof __ATENDE_LAMBDA_ROLE__ === "string" ? __ATENDE_LAMBDA_ROLE__ : "all";
export const runsHeavy = ROLE === "all" || ROLE === "api";
