import { join } from "node:path";
import { REPO_ROOT, startPlatform } from "./platform";

/** `npm start`: the whole platform on this machine, data under .data/, until Ctrl-C. */
const main = async () => {
  const platform = await startPlatform({
    dataDir: process.env.ATENDE_DATA_DIR ?? join(REPO_ROOT, ".data"),
    httpPort: Number(process.env.PORT ?? 8080),
    shopPort: Number(process.env.SHOP_PORT ?? 8090),
    host: process.env.HOST ?? "127.0.0.1",
    logLevel: (process.env.LOG_LEVEL as never) ?? "warn",
    demo: process.env.ATENDE_DEMO !== "0",
  });

  const lines = [
    "",
    `  Atende is running at ${platform.url}`,
    `  WhatsApp simulator (scan QR codes, play customers): ${platform.simulatorUrl}`,
    `  Demo shop with the website chat (another origin): ${platform.shopUrl}`,
    platform.seededNow ? "  First start: demo data created." : "  Data kept from the previous start (.data/).",
    ...(platform.demo ? ["  Demo conversations are being played on the Simulador connection (about a minute)."] : []),
    "",
    "  Logins:",
    ...(platform.logins ?? []).map((l) => `    ${l.role.padEnd(18)} ${l.email.padEnd(26)} ${l.password.padEnd(12)} (${l.company})`),
    "",
    "  Ctrl-C stops everything.",
    "",
  ];
  console.log(lines.join("\n"));
  platform.demo?.then(
    () => console.log("  Demo conversations ready: sign in as the admin to see them."),
    (err) => console.error(`  The demo conversations could not be completed: ${String(err)}`),
  );

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log("stopping...");
    await platform.stop();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
