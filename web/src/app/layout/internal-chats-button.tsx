import { InternalChatsPopover } from "../../features/chats/components/internal-chats-popover";

/** Top-bar slot for the internal chats popover (spec 1 "Main layout": links to /chats/{uuid}). */
export function InternalChatsButton() {
  return <InternalChatsPopover />;
}
