export {};
/**
 * One session host as the local runner starts it (./host-fleet.ts): the session host's own entry point, plus one
 * rule of the runner's: when the runner is gone (its IPC channel closes, even after a SIGKILL), the host drains and
 * exits instead of living on as an orphan.
 */
process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));
await import("@atende/session-host/main");
