import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, List, ListItemButton, ListItemIcon, ListItemText, Stack, Switch } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FORWARD_PAUSE_MS } from "@atende/shared/constants/business";
import type { ContactView } from "@atende/shared/contracts/http/contacts";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { toast } from "../../../../lib/toast";
import { toastError } from "../../../../lib/toast-error";
import { usePreference } from "../../../../lib/preferences";
import { ContactPicker } from "../../../../components/ui/contact-picker";
import { stripWhatsAppMarkup } from "../../shared/whatsapp-markup";
import { forwardMessage } from "../api/message-actions";
import { flattenMessages, messagesListOptions } from "../api/messages-list";
import { SIGN_MESSAGE } from "../composer-rules";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Forward one or more messages of the conversation to a contact, 900 ms apart; nothing selected: 'not a message'. */
export function ForwardDialog({ initial, onClose }: { initial: MessageView; onClose: () => void }) {
  const { t } = useTranslation("messages");
  const qc = useQueryClient();
  const [sign] = usePreference(SIGN_MESSAGE);
  const recent = flattenMessages(qc.getQueryData(messagesListOptions(initial.ticketId).queryKey))
    .filter((m) => !m.isDeleted)
    .slice(-30)
    .reverse();
  const [selected, setSelected] = useState<Set<string>>(new Set([initial.id]));
  const [contact, setContact] = useState<ContactView | null>(null);
  const [signMessage, setSignMessage] = useState(sign);
  const [sending, setSending] = useState(false);

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = async () => {
    const ids = recent.filter((m) => selected.has(m.id)).reverse().map((m) => m.id);
    if (!ids.length) {
      toast.error(t("forward.notAMessage"));
      return;
    }
    if (!contact) return;
    setSending(true);
    try {
      for (const [i, messageId] of ids.entries()) {
        if (i > 0) await pause(FORWARD_PAUSE_MS);
        await forwardMessage({ messageId, contactId: contact.id, signMessage });
      }
      toast.success(t("forward.done"));
      onClose();
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{t("forward.title")}</DialogTitle>
      <DialogContent>
        <Stack spacing={1} sx={{ pt: 1 }}>
          <ContactPicker value={contact} onChange={setContact} autoFocus />
          <FormControlLabel control={<Switch checked={signMessage} onChange={(e) => setSignMessage(e.target.checked)} />} label={t("composer.sign")} />
          <List dense sx={{ maxHeight: 280, overflowY: "auto" }} data-testid="forward-messages">
            {recent.map((m) => (
              <ListItemButton key={m.id} onClick={() => toggle(m.id)} dense>
                <ListItemIcon>
                  <Checkbox edge="start" checked={selected.has(m.id)} tabIndex={-1} disableRipple />
                </ListItemIcon>
                <ListItemText primary={stripWhatsAppMarkup(m.body) || t(`types.${m.mediaType}`, { defaultValue: m.mediaType })} secondary={m.fromMe ? t("you") : m.contact?.name} primaryTypographyProps={{ noWrap: true }} />
              </ListItemButton>
            ))}
          </List>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={!contact || sending} data-testid="forward-submit">
          {t("forward.submit")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
