import type * as BaileysModule from "baileys";
import type { AuthenticationCreds, AuthenticationState, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from "baileys";
import type { AuthStore } from "../provider.port";

type Baileys = typeof BaileysModule;
type BaileysLogger = Parameters<Baileys["makeCacheableSignalKeyStore"]>[1];

/**
 * Baileys' auth state over our AuthStore (the table, lease-conditional, cached): creds under type "creds",
 * and every signal key type (pre-key, session, sender-key, sender-key-memory, app-state-sync-key,
 * app-state-sync-version, lid-mapping, device-list, tctoken, identity-key) under its own type.
 * App-state sync keys are protobuf objects whose JSON form carries `keyData` as base64 text: they are rebuilt
 * with `AppStateSyncKeyData.fromObject` on read, as Baileys' own file store does, so the bytes come back exact.
 */
export const baileysKeys = (b: Pick<Baileys, "proto">, store: AuthStore): SignalKeyStore => ({
  get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
    const found = await store.get(type, ids);
    if (type === "app-state-sync-key")
      for (const [id, value] of Object.entries(found))
        if (value && !(value instanceof b.proto.Message.AppStateSyncKeyData)) found[id] = b.proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>);
    return found as { [id: string]: SignalDataTypeMap[T] };
  },
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
  const state: AuthenticationState = { creds, keys: b.makeCacheableSignalKeyStore(baileysKeys(b, store), logger) };
  return { state, saveCreds: () => saveCreds(store, creds) };
};
