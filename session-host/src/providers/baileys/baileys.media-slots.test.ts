import { describe, expect, it } from "vitest";
import { configureMediaSlots } from "../../media/media-slots";
import { harness } from "./scripted-baileys.fixtures";

describe("Baileys provider: outbound media takes one of the process's media slots", () => {
  it("uploads across connections run at most as many at once as there are slots; texts never wait for one", async () => {
    configureMediaSlots(2);
    try {
      let reading = 0;
      let most = 0;
      const media = (n: number) => ({
        key: `4/2026/11/x-${n}.jpg`,
        mimetype: "image/jpeg",
        filename: `x-${n}.jpg`,
        size: 10,
        kind: "image" as const,
        read: async () => {
          reading++;
          most = Math.max(most, reading);
          await new Promise((r) => setTimeout(r, 40));
          reading--;
          return Buffer.from("0123456789");
        },
      });
      const sessions = await Promise.all(
        [0, 1, 2].map(async () => {
          const h = harness({ sendPace: { perMinute: 6_000, burst: 100 } });
          await h.session.start();
          h.latest().open();
          return h;
        }),
      );
      const sends = sessions.flatMap((h, i) => [0, 1].map((j) => h.session.send({ messageId: `M${i}${j}`, chatJid: `55119876543${i}${j}@s.whatsapp.net`, body: "", media: media(i * 2 + j) })));
      const text = sessions[0]!.session.send({ messageId: "T1", chatJid: "5511987654399@s.whatsapp.net", body: "só texto" });
      await expect(text).resolves.toEqual({ messageId: "T1" });
      expect(reading).toBeGreaterThan(0); // the text went out while uploads were still running
      await Promise.all(sends);
      expect(most).toBe(2);
      expect(sessions.flatMap((h) => h.latest().sent)).toHaveLength(7);
    } finally {
      configureMediaSlots(4);
    }
  });
});
