import DeleteIcon from "@mui/icons-material/Delete";
import { Box, Button, IconButton, List, ListItem, ListItemText, Stack, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDate, formatTime } from "@atende/shared/domain/format/dates";
import { toast } from "../../../../lib/toast";
import { ConfirmDialog } from "../../../../components/ui/confirm-dialog";
import { useAddNote, useDeleteNote, useTicketNotes } from "../api/ticket-notes";

/** Internal notes about the contact, kept with the ticket (spec 1 "Contact side drawer", section 8 messages). */
export function TicketNotes({ ticketId, contactId }: { ticketId: number; contactId: number }) {
  const { t } = useTranslation("contacts");
  const notes = useTicketNotes(ticketId, contactId);
  const add = useAddNote(ticketId, contactId);
  const remove = useDeleteNote(ticketId, contactId);
  const [text, setText] = useState("");
  const [error, setError] = useState(false);
  const [toDelete, setToDelete] = useState<number | null>(null);

  const save = () => {
    if (text.trim().length < 2) {
      setError(true);
      return;
    }
    add.mutate(text.trim(), {
      onSuccess: () => {
        setText("");
        toast.success(t("notes.added"));
      },
    });
  };

  return (
    <Box data-testid="ticket-notes">
      <Typography variant="subtitle2" gutterBottom>
        {t("notes.title")}
      </Typography>
      <Stack spacing={1}>
        <TextField
          multiline
          minRows={2}
          maxRows={6}
          size="small"
          placeholder={t("notes.placeholder")}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setError(false);
          }}
          error={error}
          helperText={error ? t("notes.tooShort") : undefined}
          inputProps={{ "aria-label": t("notes.placeholder") }}
        />
        <Stack direction="row" spacing={1} justifyContent="flex-end">
          <Button size="small" onClick={() => setText("")}>
            {t("common:cancel")}
          </Button>
          <Button size="small" variant="contained" onClick={save} disabled={add.isPending}>
            {t("common:save")}
          </Button>
        </Stack>
      </Stack>
      <List dense>
        {(notes.data ?? []).map((note) => (
          <ListItem
            key={note.id}
            divider
            secondaryAction={
              <IconButton edge="end" aria-label={t("common:delete")} onClick={() => setToDelete(note.id)}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            }
          >
            <ListItemText primary={note.note} secondary={`${note.user?.name ?? (note.userId === null ? t("notes.bot") : "")} - ${formatDate(note.createdAt)} ${formatTime(note.createdAt)}`} primaryTypographyProps={{ sx: { whiteSpace: "pre-wrap" } }} />
          </ListItem>
        ))}
      </List>
      <ConfirmDialog
        open={toDelete !== null}
        title={t("notes.confirmDelete")}
        busy={remove.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() =>
          toDelete !== null &&
          remove.mutate(toDelete, {
            onSuccess: () => toast.success(t("notes.deleted")),
            onSettled: () => setToDelete(null),
          })
        }
      />
    </Box>
  );
}
