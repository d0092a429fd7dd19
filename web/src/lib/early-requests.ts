/**
 * Requests public/session-boot.js started before the app's modules loaded (a signed-in browser's page load): the
 * refresh and, on /tickets, the first screen's GETs. The app's client takes each over once instead of asking again;
 * after EARLY_WINDOW_MS nothing is handed over any more (a later GET must not get an answer from the page load).
 */
type Early = { at: number; refresh: Promise<Response> | null; ready?: Promise<unknown> | null; gets: Record<string, Promise<Response> | undefined> };

export const EARLY_WINDOW_MS = 5_000;

const holder = globalThis as { __atendeEarly?: Early };

const current = (): Early | undefined => {
  const early = holder.__atendeEarly;
  if (early && performance.now() - early.at > EARLY_WINDOW_MS) {
    delete holder.__atendeEarly;
    return undefined;
  }
  return early;
};

/**
 * Settles when session-boot.js has registered its GETs (it reads the refresh's answer itself, so they may come a
 * moment after the app has the session): the app's first GETs wait for it, or they would race and ask twice.
 */
export const earlyRequestsReady = (): Promise<unknown> => current()?.ready ?? Promise.resolve();

/** The refresh started at load, once; `ask` again if it failed on the network. */
export const takeEarlyRefresh = (ask: () => Promise<Response>): Promise<Response> | undefined => {
  const early = current();
  const refresh = early?.refresh;
  if (!early || !refresh) return undefined;
  early.refresh = null;
  return refresh.catch(ask);
};

/** The answer to a GET of exactly this address (as buildUrl writes it) started at load, once. */
export const takeEarlyGet = (url: string, ask: () => Promise<Response>): Promise<Response> | undefined => {
  const early = current();
  const got = early?.gets[url];
  if (!early || !got) return undefined;
  delete early.gets[url];
  return got.catch(ask);
};
