import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EDIT_MESSAGE_ROWS } from "@atende/shared/constants/business";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { useEditMessage } from "../api/message-actions";
import { isSendable } from "../composer-rules";

/** Edit an own message: the box grows to 6 rows; blank text cannot be saved. */
export function EditMessageDialog({ message, onClose }: { message: MessageView; onClose: () => void }) {
  const { t } = useTranslation("messages");
  const [body, setBody] = useState(message.body);
  const edit = useEditMessage();
  const save = () => {
    if (!isSendable(body)) return;
    edit.mutate({ id: message.id, body: body.trim() }, { onSuccess: onClose });
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t("edit.title")}</DialogTitle>
      <DialogContent>
        <TextField autoFocus fullWidth multiline maxRows={EDIT_MESSAGE_ROWS} value={body} onChange={(e) => setBody(e.target.value)} sx={{ mt: 1 }} inputProps={{ "aria-label": t("edit.title") }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={save} disabled={!isSendable(body) || edit.isPending}>
          {t("common:save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
