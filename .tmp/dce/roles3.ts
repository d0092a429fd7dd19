declare const __ATENDE_LAMBDA_ROLE__: string;
export const ROLE = __ATENDE_LAMBDA_ROLE__;
