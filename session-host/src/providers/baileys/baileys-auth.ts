import type { AuthenticationCreds, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from "baileys";
import type { AuthStore } from "../provider.port";

/**
 * Baileys' auth state over our AuthStore (the table, lease-conditional, cached): creds under type "creds",
 * and every signal key type (pre-key, session, sender-key, sender-key-memory, app-state-sync-key,
 * app-state-sync-version, lid-mapping, device-list, tctoken, identity-key) under its own type.
 */
export const baileysKeys = (store: AuthStore): SignalKeyStore => ({
  get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => (await store.get(type, ids)) as { [id: string]: SignalDataTypeMap[T] },
  set: async (data: SignalDataSet) => store.set(data as Record<string, Record<string, unknown | null>>),
  clear: async () => store.clear(),
});

export const loadCreds = async (store: AuthStore, init: () => AuthenticationCreds): Promise<AuthenticationCreds> => {
  const found = (await store.get("creds", ["main"])).main as AuthenticationCreds | undefined;
  return found ?? init();
};

export const saveCreds = (store: AuthStore, creds: AuthenticationCreds) => store.set({ creds: { main: creds } });
