import type { Mailer, MailMessage } from "./mail.port";

/** Tests: messages are kept in `sent`, newest last. */
export const createMemoryMailer = (): Mailer & { sent: MailMessage[] } => {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(m) {
      sent.push(m);
    },
  };
};
