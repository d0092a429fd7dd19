import type { SocketSender } from "./sender.port";

/** In-memory sender for tests: records every frame; sockets in `gone` answer GoneException. */
export const createMemorySender = () => {
  const frames: { connectionId: string; frame: unknown }[] = [];
  const gone = new Set<string>();
  const sender: SocketSender & { frames: typeof frames; gone: Set<string> } = {
    frames,
    gone,
    async post(connectionId, frame) {
      if (gone.has(connectionId)) return "gone";
      frames.push({ connectionId, frame });
      return "ok";
    },
    async disconnect(connectionId) {
      gone.add(connectionId);
    },
  };
  return sender;
};
