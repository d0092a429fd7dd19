/** Location message body (spec 1 section 3): "image|link|description" (description optional). */
export type LocationBody = { imageUrl: string; link: string; description: string };

const safeUrl = (value: string): string => (/^(https?:|data:image\/)/i.test(value.trim()) ? value.trim() : "");

export const parseLocationBody = (body: string | null | undefined): LocationBody | null => {
  if (!body || !body.includes("|")) return null;
  const [image = "", link = "", ...description] = body.split("|");
  const parsed = { imageUrl: safeUrl(image), link: safeUrl(link), description: description.join("|").trim() };
  return parsed.link || parsed.imageUrl ? parsed : null;
};

/** A vcard body: the shown name and the phone numbers. */
export type VcardBody = { name: string; numbers: string[] };

export const parseVcard = (body: string | null | undefined): VcardBody | null => {
  if (!body || !/BEGIN:VCARD/i.test(body)) return null;
  const lines = body.split(/\r?\n/);
  const fn = lines.find((l) => /^FN[:;]/i.test(l));
  const n = lines.find((l) => /^N[:;]/i.test(l));
  const name = fn ? fn.slice(fn.indexOf(":") + 1).trim() : n ? n.slice(n.indexOf(":") + 1).split(";").filter(Boolean).reverse().join(" ").trim() : "";
  const numbers: string[] = [];
  for (const line of lines) {
    if (!/^(item\d+\.)?TEL/i.test(line)) continue;
    const waid = /waid=(\d+)/i.exec(line);
    const value = line.slice(line.lastIndexOf(":") + 1).trim();
    const digits = (waid?.[1] ?? value).replace(/\D/g, "");
    if (digits) numbers.push(digits);
  }
  return { name, numbers };
};
