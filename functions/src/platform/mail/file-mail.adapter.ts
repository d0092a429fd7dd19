import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ulid } from "ulid";
import type { Logger } from "../logger";
import type { Mailer, MailMessage } from "./mail.port";

const encodeHeader = (value: string) => `=?UTF-8?B?${Buffer.from(value, "utf8").toString("base64")}?=`;

/** RFC 822 text of a message: what SES would have sent. */
export const toEml = (from: string, m: MailMessage, now: Date): string =>
  [
    `From: ${from}`,
    `To: ${m.to}`,
    `Subject: ${encodeHeader(m.subject)}`,
    `Date: ${now.toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=UTF-8",
    "Content-Transfer-Encoding: 8bit",
    "",
    m.text,
    "",
  ].join("\r\n");

/** One machine: every message becomes a .eml file under MAIL_DIR (named by time, so they sort) and a log line without its body. */
export const createFileMailer = (opts: { dir: string; from: string; logger: Logger; clock: () => Date }): Mailer => ({
  async send(m) {
    await mkdir(opts.dir, { recursive: true });
    const file = join(opts.dir, `${ulid()}.eml`);
    await writeFile(file, toEml(opts.from, m, opts.clock()), "utf8");
    opts.logger.info("mail written", { to: m.to, subject: m.subject, file });
  },
});
