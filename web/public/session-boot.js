/*
 * Loaded by index.html before the app's modules (a classic script, same origin: CSP script-src 'self'; deployed
 * with index.html, never cached). A browser that signed in before (the "signedIn" hint, no secret) trades its
 * refresh cookie for an access token now, while the app's code downloads, and on /tickets asks at once for what
 * the first screen waits for: the plan and the first lists (issue 15: first card <= 1 s, docs/adr/0037).
 * lib/early-requests.ts hands these answers to the app's client, once each, within a few seconds of the load.
 * The GET addresses are the ones lib/api-client.ts builds (early-requests.test.ts holds them equal).
 */
(function () {
  try {
    // SIGNED_IN_HINT of lib/session-storage.ts (early-requests.test.ts runs this script with the app's constant)
    if (localStorage.getItem("signedIn") !== "1") return;
  } catch {
    return;
  }
  var json = { Accept: "application/json" };
  var early = { at: performance.now(), refresh: null, ready: null, gets: {} };
  window.__atendeEarly = early;
  early.refresh = fetch("/api/auth/refresh_token", { method: "POST", credentials: "include", headers: json });
  var path = location.pathname;
  if (path !== "/tickets" && path.indexOf("/tickets/") !== 0) return;
  // settles once the GETs below are registered (or will not be): the app waits for it before its first GETs
  early.ready = early.refresh
    .then(function (res) {
      if (!res.ok) return;
      return res
        .clone()
        .json()
        .then(function (auth) {
          var headers = { Accept: "application/json", Authorization: "Bearer " + auth.token };
          var get = function (url) {
            early.gets[url] = fetch(url, { headers: headers, credentials: "include" });
          };
          get("/api/companies/listPlan/" + auth.user.companyId);
          get("/api/tickets?pageNumber=1&status=open");
          get("/api/tickets?pageNumber=1&status=pending");
        });
    })
    .catch(function () {
      // the app asks again itself
    });
})();
