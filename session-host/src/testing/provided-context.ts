/** Values the int project's global setup hands to test files (infra/local/src/testing/dynamo-global-setup.ts). */
declare module "vitest" {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
export {};
