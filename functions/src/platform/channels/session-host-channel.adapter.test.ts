import { describe, expect, it } from "vitest";
import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";
import { createChannels, createSessionHostChannel } from "./session-host-channel.adapter";

describe("the session-host channel (QR: Baileys and the simulator)", () => {
  it("hands every conversation command to the command queue unchanged, and is the default kind", async () => {
    const sent: OutboundCommand[] = [];
    const channels = createChannels({ "session-host": createSessionHostChannel({ send: async (c) => void sent.push(c) }) });
    const channel = channels.forConnection({ whatsappId: 7 });
    expect(channel.kind).toBe("session-host");
    const cmd = { type: "react", commandId: "c1", companyId: 1, whatsappId: 7, chatJid: "5511@s.whatsapp.net", targetId: "M1", emoji: "👍" } as const;
    await channel.dispatch(cmd);
    expect(sent).toEqual([cmd]);
  });

  it("offers every action and has no reply window", () => {
    const channel = createSessionHostChannel({ send: async () => {} });
    expect(channel.capabilities).toEqual({ edit: true, delete: true, react: true, markRead: true, presence: true, rejectCall: true, replyWindowHours: null });
  });
});
