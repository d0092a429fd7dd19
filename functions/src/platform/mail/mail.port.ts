/** Outgoing email: SES in AWS, .eml files locally, in memory in tests. */
export type MailMessage = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send(message: MailMessage): Promise<void> };
