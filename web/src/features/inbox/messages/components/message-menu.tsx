import { Menu, MenuItem } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { ConfirmDialog } from "../../../../components/ui/confirm-dialog";
import { useDeleteMessage, useReact } from "../api/message-actions";
import { EditMessageDialog } from "./edit-message-dialog";
import { ForwardDialog } from "./forward-dialog";
import { ReactionPicker } from "./reaction-picker";

/** Message options: reply, react, forward; edit and delete only for the author's own messages. */
export function MessageMenu({
  anchor,
  message,
  onClose,
  onReply,
  noEditDelete = false,
}: {
  anchor: HTMLElement;
  message: MessageView;
  onClose: () => void;
  onReply: (m: MessageView) => void;
  /** the connection cannot edit or delete for everyone (the official Cloud API): the options are not offered */
  noEditDelete?: boolean;
}) {
  const { t } = useTranslation("messages");
  const [mode, setMode] = useState<"menu" | "react" | "forward" | "edit" | "delete">("menu");
  const react = useReact();
  const remove = useDeleteMessage();
  const editable = !noEditDelete && message.fromMe && !message.isDeleted && (message.mediaType === "chat" || !message.mediaUrl);
  return (
    <>
      <Menu open={mode === "menu"} anchorEl={anchor} onClose={onClose}>
        <MenuItem
          onClick={() => {
            onReply(message);
            onClose();
          }}
        >
          {t("menu.reply")}
        </MenuItem>
        <MenuItem onClick={() => setMode("react")}>{t("menu.react")}</MenuItem>
        <MenuItem onClick={() => setMode("forward")}>{t("menu.forward")}</MenuItem>
        {editable && <MenuItem onClick={() => setMode("edit")}>{t("menu.edit")}</MenuItem>}
        {message.fromMe && !noEditDelete && <MenuItem onClick={() => setMode("delete")}>{t("menu.delete")}</MenuItem>}
      </Menu>
      {mode === "react" && <ReactionPicker anchor={anchor} onClose={onClose} onPick={(emoji) => react.mutate({ id: message.id, type: emoji }, { onSettled: onClose })} />}
      {mode === "forward" && <ForwardDialog initial={message} onClose={onClose} />}
      {mode === "edit" && <EditMessageDialog message={message} onClose={onClose} />}
      <ConfirmDialog open={mode === "delete"} title={t("delete.title")} busy={remove.isPending} onClose={onClose} onConfirm={() => remove.mutate(message, { onSettled: onClose })}>
        {t("delete.text")}
      </ConfirmDialog>
    </>
  );
}
