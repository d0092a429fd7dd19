import * as z from "zod";
import type { QuestionValidation } from "./flow";

/**
 * Issue 30: a `question` node's answer checks. Each answers the value to keep (normalised: digits only for cpf/cnpj/
 * phone, ISO yyyy-mm-dd for a date, a plain number) or null when the answer is not valid. zod checks the e-mail.
 */
const digits = (s: string) => s.replace(/\D+/g, "");
const allSame = (d: string) => /^(\d)\1*$/.test(d);

/** CPF: 11 digits, two check digits mod 11 (Receita Federal). */
export const isCpf = (raw: string): boolean => {
  const d = digits(raw);
  if (d.length !== 11 || allSame(d)) return false;
  for (const len of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== Number(d[len])) return false;
  }
  return true;
};

/** CNPJ: 14 digits, two check digits with weights 5..2,9..2 and 6..2,9..2. */
export const isCnpj = (raw: string): boolean => {
  const d = digits(raw);
  if (d.length !== 14 || allSame(d)) return false;
  for (const len of [12, 13]) {
    let sum = 0;
    let w = len - 7;
    for (let i = 0; i < len; i++) {
      sum += Number(d[i]) * w;
      w = w === 2 ? 9 : w - 1;
    }
    const r = sum % 11;
    if ((r < 2 ? 0 : 11 - r) !== Number(d[len])) return false;
  }
  return true;
};

/** dd/mm/yyyy (Brazil) or yyyy-mm-dd; a real calendar date. */
export const parseDate = (raw: string): string | null => {
  const s = raw.trim();
  const br = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  const [y, m, d] = br ? [Number(br[3]), Number(br[2]), Number(br[1])] : iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : [0, 0, 0];
  if (!y) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return dt.toISOString().slice(0, 10);
};

/** A Brazilian phone (10-11 digits with DDD, optionally +55) or any international number of 8-15 digits. */
export const parsePhone = (raw: string): string | null => {
  if (!/^[\d\s()+.-]+$/.test(raw.trim())) return null;
  const d = digits(raw);
  return d.length >= 8 && d.length <= 15 ? d : null;
};

export const parseNumber = (raw: string): string | null => {
  const s = raw.trim().replace(/\s+/g, "");
  // 1.234,56 (pt-BR) or 1234.56
  const n = /^-?\d{1,3}(\.\d{3})+(,\d+)?$|^-?\d+(,\d+)?$/.test(s) ? Number(s.replace(/\./g, "").replace(",", ".")) : /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : NaN;
  return Number.isFinite(n) ? String(n) : null;
};

const email = z.email();

export function checkAnswer(kind: QuestionValidation, raw: string): string | null {
  const s = raw.trim();
  if (!s) return null;
  switch (kind) {
    case "text":
      return s;
    case "email":
      return email.safeParse(s).success ? s.toLowerCase() : null;
    case "number":
      return parseNumber(s);
    case "cpf":
      return isCpf(s) ? digits(s) : null;
    case "cnpj":
      return isCnpj(s) ? digits(s) : null;
    case "date":
      return parseDate(s);
    case "phone":
      return parsePhone(s);
  }
}
