export {};
/**
 * One session host as the local runner starts it (./host-fleet.ts): the session host's own entry point, plus one
 * rule of the runner's: when the runner is gone (its IPC channel closes, even after a SIGKILL), the host drains and
 * exits instead of living on as an orphan; and it answers "memory" on that channel with its process.memoryUsage().
 */
process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));
// the runner (or the bench) asks for the host's memory: heap and RSS as the process sees them
process.on("message", (m) => {
  if (m === "memory") process.send?.({ memory: process.memoryUsage() });
});
await import("@atende/session-host/main");
