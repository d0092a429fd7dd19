/**
 * JSON that keeps binary values: Buffers and Uint8Arrays become { type: "Buffer", data: base64 }.
 * The same shape as Baileys' BufferJSON, so creds and signal keys round-trip exactly.
 */
export const encodeAuthValue = (value: unknown): string =>
  JSON.stringify(value, function (this: Record<string, unknown>, key, v: unknown) {
    const raw = this[key];
    if (Buffer.isBuffer(raw) || raw instanceof Uint8Array) return { type: "Buffer", data: Buffer.from(raw).toString("base64") };
    if (v && typeof v === "object" && (v as { type?: string }).type === "Buffer" && Array.isArray((v as { data?: unknown }).data))
      return { type: "Buffer", data: Buffer.from((v as { data: number[] }).data).toString("base64") };
    return v;
  });

export const decodeAuthValue = (text: string): unknown =>
  JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === "object" && (v as { type?: string }).type === "Buffer") {
      const data = (v as { data: unknown }).data;
      if (typeof data === "string") return Buffer.from(data, "base64");
      if (Array.isArray(data)) return Buffer.from(data as number[]);
    }
    return v;
  });
