import { Alert, Autocomplete, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChatResponse } from "@atende/shared/contracts/http/chats";
import { chatInputSchema } from "@atende/shared/domain/chats/chat";
import { useSessionUser } from "../../../lib/session/session-context";
import { useAllUsers } from "../../../lib/pickers";
import { useSaveChat } from "../api/chats";

type Picked = { id: number; name: string };

/**
 * Create or edit a chat: title and the company's users (the owner is always a member and is not listed).
 * Spec 3 section 5: a missing title or no user shows an alert and nothing is sent; call failures are ignored.
 */
export function ChatDialog({ chat, onClose, onSaved }: { chat: ChatResponse | null; onClose: () => void; onSaved?: (chat: ChatResponse) => void }) {
  const { t } = useTranslation("chats");
  const me = useSessionUser();
  const users = useAllUsers();
  const [title, setTitle] = useState(chat?.title ?? "");
  const [picked, setPicked] = useState<Picked[]>(chat ? chat.users.filter((u) => u.userId !== me.id).map((u) => ({ id: u.userId, name: u.user.name })) : []);
  const [alert, setAlert] = useState<string | null>(null);
  const save = useSaveChat();
  const options: Picked[] = (users.data ?? []).filter((u) => u.id !== me.id).map((u) => ({ id: u.id, name: u.name }));

  const submit = () => {
    if (!chatInputSchema.shape.title.safeParse(title).success) return setAlert(t("alerts.titleRequired"));
    if (picked.length === 0) return setAlert(t("alerts.usersRequired"));
    setAlert(null);
    save.mutate(
      { id: chat?.id, input: { title: title.trim(), users: picked.map((u) => u.id) } },
      {
        onSuccess: (saved) => {
          onSaved?.(saved);
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{chat ? t("edit") : t("new")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {alert && (
            <Alert severity="warning" data-testid="chat-dialog-alert">
              {alert}
            </Alert>
          )}
          <TextField label={t("dialog.title")} value={title} onChange={(e) => setTitle(e.target.value)} autoFocus slotProps={{ htmlInput: { maxLength: 100, "data-testid": "chat-title" } }} />
          <Autocomplete
            multiple
            options={options}
            value={picked}
            onChange={(_, value) => setPicked(value)}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            loading={users.isLoading}
            renderInput={(params) => <TextField {...params} label={t("dialog.users")} inputProps={{ ...params.inputProps, "data-testid": "chat-users" }} />}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("dialog.cancel")}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending} data-testid="chat-save">
          {t("dialog.save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
