/**
 * Top-bar slot for the internal chats popover (spec 1 "Main layout": links to /chats/{uuid}). Empty until the
 * internal-chat feature replaces this body with its popover (GET /chats/).
 */
export function InternalChatsButton() {
  return null;
}
