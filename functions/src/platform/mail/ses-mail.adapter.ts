import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import type { Mailer } from "./mail.port";
import { traced } from "../tracer";

export const createSesMailer = (opts: { from: string; region: string }): Mailer => {
  const client = traced(new SESv2Client({ region: opts.region }));
  return {
    async send(m) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: opts.from,
          Destination: { ToAddresses: [m.to] },
          Content: {
            Simple: {
              Subject: { Data: m.subject, Charset: "UTF-8" },
              Body: { Text: { Data: m.text, Charset: "UTF-8" }, ...(m.html ? { Html: { Data: m.html, Charset: "UTF-8" } } : {}) },
            },
          },
        }),
      );
    },
  };
};
