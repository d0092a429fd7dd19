import * as z from "zod";

/** An IANA time zone the runtime knows (e.g. America/Sao_Paulo). */
export const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(tz);
  } catch {
    return false;
  }
};

/** PUT /companies/{id}/timezone (issue 13: protocols and SLA clocks count in the company's zone). */
export const companyTimeZoneSchema = z.object({ timezone: z.string().trim().min(1).max(60).refine(isTimeZone, "Invalid time zone") });

/** Brazil's zones first in the settings page's picker. */
export const BRAZIL_TIME_ZONES = [
  "America/Sao_Paulo",
  "America/Bahia",
  "America/Fortaleza",
  "America/Recife",
  "America/Maceio",
  "America/Belem",
  "America/Araguaina",
  "America/Santarem",
  "America/Manaus",
  "America/Cuiaba",
  "America/Campo_Grande",
  "America/Porto_Velho",
  "America/Boa_Vista",
  "America/Rio_Branco",
  "America/Eirunepe",
  "America/Noronha",
] as const;
