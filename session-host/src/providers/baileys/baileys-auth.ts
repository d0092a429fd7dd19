import type * as BaileysModule from "baileys";
import type { AuthenticationCreds, AuthenticationState, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from "baileys";
import type { AuthStore } from "../provider.port";

type Baileys = typeof BaileysModule;
type BaileysLogger = Parameters<Baileys["makeCacheableSignalKeyStore"]>[1];

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

/**
 * One connection's auth as the socket gets it: creds (loaded, or new for a first QR) and the keys behind
 * Baileys' own cache. `saveCreds` is what `creds.update` calls: it goes through the store's one write queue of
 * the connection (after any key write already queued, encoded when its turn comes), never beside it.
 */
export const createBaileysAuth = async (b: Baileys, store: AuthStore, logger: BaileysLogger) => {
  const creds = await loadCreds(store, b.initAuthCreds);
  const state: AuthenticationState = { creds, keys: b.makeCacheableSignalKeyStore(baileysKeys(store), logger) };
  return { state, saveCreds: () => saveCreds(store, creds) };
};
