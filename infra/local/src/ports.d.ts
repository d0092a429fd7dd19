/** A free TCP port on loopback, for services that need a fixed port number (DynamoDB Local). */
export declare const freePort: () => Promise<number>;
export declare const waitFor: (check: () => Promise<boolean>, timeoutMs: number, what: string) => Promise<void>;
