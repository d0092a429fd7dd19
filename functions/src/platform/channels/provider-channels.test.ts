import { describe, expect, it } from "vitest";
import type { OutboundCommand } from "@atende/shared/contracts/queue-messages";
import type { ChannelCommand } from "./channel.port";
import { createSessionHostChannel } from "./session-host-channel.adapter";
import { createCloudApiChannel, CLOUD_API_CAPABILITIES } from "./cloud-api/cloud-api-channel.adapter";
import { createProviderChannels, providerKind } from "./provider-channels";
import { createWebchatChannel } from "./webchat/webchat-channel.adapter";

describe("channels by provider", () => {
  it("routes each connection's commands to its provider's adapter, looked up at dispatch when the caller does not say", async () => {
    const viaQueue: OutboundCommand[] = [];
    const viaCloud: ChannelCommand[] = [];
    const channels = createProviderChannels(
      { "session-host": createSessionHostChannel({ send: async (c) => void viaQueue.push(c) }), "cloud-api": createCloudApiChannel({ enqueue: async (c) => void viaCloud.push(c) }), webchat: createWebchatChannel({ report: async () => {} }) },
      async (_companyId, whatsappId) => (whatsappId === 9 ? "cloud-api" : "session-host"),
    );
    const cmd = (whatsappId: number): ChannelCommand => ({ type: "read", commandId: `c${whatsappId}`, companyId: 1, whatsappId, chatJid: "5511@s.whatsapp.net", messageIds: ["m"] });
    await channels.forConnection({ whatsappId: 9 }).dispatch(cmd(9));
    await channels.forConnection({ whatsappId: 3 }).dispatch(cmd(3));
    expect(viaCloud).toEqual([cmd(9)]);
    expect(viaQueue).toEqual([cmd(3)]);
    expect(channels.forConnection({ whatsappId: 9, kind: "cloud-api" }).capabilities).toEqual(CLOUD_API_CAPABILITIES);
    expect(channels.capabilitiesOf("cloudapi").edit).toBe(false);
    expect(channels.capabilitiesOf("beta").edit).toBe(true);
    expect([providerKind("cloudapi"), providerKind("beta"), providerKind(undefined)]).toEqual(["cloud-api", "session-host", "session-host"]);
  });
});
