/** Values vitest's global setups hand to test files (infra/local/src/testing, e2e/support). */
declare module "vitest" {
    interface ProvidedContext {
        dynamoEndpoint: string;
        baseUrl: string;
        tableName: string;
        platformEnv: Record<string, string>;
    }
}
export {};
