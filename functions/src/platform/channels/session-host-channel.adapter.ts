import type { CommandQueue } from "../queues/commands.port";
import type { Channel, ChannelKind, Channels } from "./channel.port";

/** The QR kind (Baileys and the simulator): every command goes to the session host through outbound.fifo. */
export const createSessionHostChannel = (commands: CommandQueue): Channel => ({
  kind: "session-host",
  capabilities: { edit: true, delete: true, react: true, markRead: true, presence: true, rejectCall: true, replyWindowHours: null },
  dispatch: (command) => commands.send(command),
});

/** The channel registry the composition root builds: one adapter per provider kind. */
export const createChannels = (adapters: Partial<Record<ChannelKind, Channel>> & { "session-host": Channel }): Channels => ({
  forConnection: (connection) => {
    const channel = adapters[connection.kind ?? "session-host"];
    if (!channel) throw new Error(`no channel adapter for ${connection.kind}`);
    return channel;
  },
});
