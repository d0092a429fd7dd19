import { useQueryClient } from "@tanstack/react-query";
import type { ChatEventData } from "@atende/shared/contracts/http/chats";
import { useRealtime } from "../../../lib/realtime";
import { applyChatEvent } from "../api/chats";

/** Keeps every chat cache live from the `chat` events (the server sends them to the chat's members only). Mount once. */
export const useChatsRealtime = () => {
  const qc = useQueryClient();
  useRealtime<ChatEventData>("chat", (data) => applyChatEvent(qc, data));
};
