import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { InboundEvent } from "@atende/shared/contracts/queue-messages";
import { createEventEmitter } from "../host/event-emitter";
import { createLogger } from "../platform/logger";
import { MediaTooLargeError, type ProviderMessage } from "../providers/provider.port";
import { readCapped } from "../providers/baileys/media";
import { createLocalMediaStore } from "./local-media.store";
import { configureMediaSlots, createMediaSlots } from "./media-slots";
import { byteCounter, peek } from "./media-stream";

/**
 * Bounded memory for inbound media (issue 29 item 4): decrypted media flows straight into the media store,
 * sniffed from its first bytes only; every transfer of the process takes one of a few slots.
 */
const identity = { companyId: 4, whatsappId: 9 };
const base = { chatJid: "5511988887777@s.whatsapp.net", fromMe: false, isGroup: false, sender: { jid: "5511988887777@s.whatsapp.net", number: "5511988887777" }, isForwarded: false, timestamp: 1 };
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** a stream of `chunks` chunks of 64 KiB, the first starting with `head` */
const chunked = (head: Buffer, chunks: number) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < chunks; i++) yield i === 0 ? Buffer.concat([head, Buffer.alloc(65_536 - head.length, 1)]) : Buffer.alloc(65_536, i % 251);
    })(),
  );

const setup = () => {
  const dir = mkdtempSync(join(tmpdir(), "media-"));
  const store = createLocalMediaStore(dir);
  const puts: string[] = [];
  const media = { ...store, put: async (k: string, b: Buffer, m: string) => (puts.push(k), store.put(k, b, m)) };
  const published: InboundEvent[] = [];
  const emitter = createEventEmitter({ identity, publisher: { publish: async (e) => void published.push(e) }, media, logger: createLogger("silent"), alive: () => true });
  return { dir, store, puts, published, emitter };
};
const refOf = (e: InboundEvent | undefined) => (e as Extract<InboundEvent, { type: "message" }>).message;

describe("inbound media straight into the store", () => {
  it("a 4 MiB image is streamed into the store (never put whole), its type sniffed from the first bytes", async () => {
    const { store, puts, published, emitter } = setup();
    const m: ProviderMessage = {
      ...base,
      id: "IMG1",
      type: "image",
      body: "",
      media: { mimetype: "image/jpeg", download: async () => Buffer.alloc(0), stream: async () => chunked(PNG, 64) },
    };
    await emitter.message(m);
    const msg = refOf(published[0]);
    expect(puts).toEqual([]); // the whole-buffer put was never used
    expect(msg.media).toMatchObject({ mimetype: "image/png", size: 64 * 65_536 });
    expect(msg.media!.filename).toMatch(/\.png$/);
    expect(await store.size!(msg.media!.key)).toBe(64 * 65_536);
  });

  it("media that turns out over the limit mid-stream is refused and leaves no file behind", async () => {
    const { dir, published, emitter } = setup();
    const capped = () => {
      const counter = byteCounter(1_000_000, (total) => new MediaTooLargeError(1_000_000, total));
      const src = chunked(PNG, 40);
      src.on("error", (e) => counter.destroy(e));
      return src.pipe(counter);
    };
    await emitter.message({ ...base, id: "BIG1", type: "video", body: "", media: { mimetype: "video/mp4", download: async () => Buffer.alloc(0), stream: async () => capped() } });
    const msg = refOf(published[0]);
    expect(msg.media).toBeUndefined();
    expect(msg.mediaRefused).toMatchObject({ reason: "tooLarge", limit: 1_000_000 });
    const files = (function list(d: string): string[] {
      return readdirSync(d, { withFileTypes: true }).flatMap((f) => (f.isDirectory() ? list(join(d, f.name)) : [f.name]));
    })(dir);
    expect(files).toEqual([]);
    expect(existsSync(dir)).toBe(true);
  });

  it("holds no more transfers at once than the process's slots, across connections and chats", async () => {
    configureMediaSlots(2);
    try {
      const { published, emitter } = setup();
      let running = 0;
      let most = 0;
      const slow = async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 40));
        const s = chunked(PNG, 2);
        s.on("end", () => running--);
        return s;
      };
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          emitter.message({ ...base, chatJid: `55119888877${String(i).padStart(2, "0")}@s.whatsapp.net`, id: `S${i}`, type: "image", body: "", media: { mimetype: "image/png", download: async () => Buffer.alloc(0), stream: slow } }),
        ),
      );
      expect(published).toHaveLength(6);
      expect(most).toBe(2);
    } finally {
      configureMediaSlots(4);
    }
  });
});

describe("media stream helpers", () => {
  it("peek holds only the first bytes and gives the whole stream back; a short stream comes whole", async () => {
    const { head, stream } = await peek(chunked(PNG, 3), 100);
    expect(head.length).toBe(100);
    expect((await readCapped(stream, 1e9)).length).toBe(3 * 65_536);
    const short = await peek(Readable.from([Buffer.from("oi")]), 100);
    expect(short.head.toString()).toBe("oi");
    expect((await readCapped(short.stream, 1e9)).toString()).toBe("oi");
  });

  it("slots run at most n tasks at once", async () => {
    const slots = createMediaSlots(3);
    let busyMax = 0;
    await Promise.all(Array.from({ length: 10 }, () => slots.run(async () => ((busyMax = Math.max(busyMax, slots.busy())), new Promise((r) => setTimeout(r, 5))))));
    expect(busyMax).toBe(3);
  });
});
