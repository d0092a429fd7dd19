import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import ImportContactsIcon from "@mui/icons-material/ImportContacts";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import ScheduleIcon from "@mui/icons-material/Schedule";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import { Avatar, Box, Button, CircularProgress, IconButton, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Tooltip, Typography } from "@mui/material";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS, SEARCH_MIN_CHARS } from "@atende/shared/constants/business";
import type { ContactEventData, ContactView } from "@atende/shared/contracts/http/contacts";
import { Link } from "react-router";
import { useIsAdmin, useSession } from "../../../../lib/session/session-context";
import { ConfirmDeleteDialog } from "../../../../components/ui/confirm-delete-dialog";
import { searchTerm, useDebounced } from "../../../../hooks/use-debounced";
import { useInfiniteQueryScroll } from "../../../../hooks/use-infinite-scroll";
import { NewTicketDialog } from "../../tickets/components/new-ticket-dialog";
import { ApiError } from "../../../../lib/api-client";
import { useRealtime } from "../../../../lib/realtime";
import { toast } from "../../../../lib/toast";
import { toastError } from "../../../../lib/toast-error";
import { isContactUploadFile, useDeleteContact, useImportPhoneContacts, useUploadContacts } from "../api/contacts";
import { useContactsList } from "../../../../lib/pickers";
import { ContactDialog } from "./contact-dialog";

/** /contacts: search (3 characters, 500 ms), infinite scroll, add/edit, delete (admins), start a ticket; live via the contact event. */
export function ContactsPage() {
  const { t } = useTranslation("contacts");
  const isAdmin = useIsAdmin();
  const canSchedule = useSession().planFlags.useSchedules;
  const [text, setText] = useState("");
  const search = useDebounced(searchTerm(text, SEARCH_MIN_CHARS), DEBOUNCE_SEARCH_MS);
  const query = useContactsList(search);
  const remove = useDeleteContact();
  const contacts = useMemo(() => (query.data?.pages ?? []).flatMap((p) => p.contacts), [query.data]);
  const [editing, setEditing] = useState<ContactView | "new" | null>(null);
  const [deleting, setDeleting] = useState<ContactView | null>(null);
  const [starting, setStarting] = useState<ContactView | null>(null);
  const onScroll = useInfiniteQueryScroll(query);
  const upload = useUploadContacts();
  const importPhone = useImportPhoneContacts();
  const [importing, setImporting] = useState<string | null>(null);
  useRealtime<ContactEventData>("contact", (data) => {
    if (data.action !== "reload" || !data.import?.done || data.import.requestId !== importing) return;
    setImporting(null);
    if (data.import.error) toast.error(t(`errors:${data.import.error}`, { defaultValue: t("importPhone.failed") }));
    else toast.success(t("importPhone.done"));
  });

  const onUpload = (file: File | undefined) => {
    if (!file) return;
    if (!isContactUploadFile(file.name)) return void toast.error(t("upload.badType"));
    upload.mutate(file, {
      onSuccess: (r) => void toast.success(t("upload.done", { created: r.created, updated: r.updated, unchanged: r.unchanged, invalid: r.invalid + r.duplicates })),
      onError: (err) => (err instanceof ApiError && err.code === "ERR_INVALID_IMPORT_FILE" ? toast.error(t("upload.badType")) : toastError(err)),
    });
  };
  const onImportPhone = () =>
    importPhone.mutate(undefined, {
      onSuccess: (r) => {
        setImporting(r.requestId);
        toast.info(t("importPhone.started"));
      },
    });

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, height: { xs: "calc(100dvh - 56px)", sm: "calc(100dvh - 64px)" }, display: "flex", flexDirection: "column", boxSizing: "border-box" }}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} alignItems={{ sm: "center" }} sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t("title")} {query.data ? `(${query.data.pages[0]?.count ?? 0})` : ""}
        </Typography>
        <TextField size="small" placeholder={t("search")} value={text} onChange={(e) => setText(e.target.value)} inputProps={{ "aria-label": t("search") }} />
        <Button
          variant="outlined"
          startIcon={importPhone.isPending || importing ? <CircularProgress size={16} /> : <ImportContactsIcon />}
          disabled={importPhone.isPending || !!importing}
          onClick={onImportPhone}
        >
          {t("importPhone.button")}
        </Button>
        <Button variant="outlined" component="label" startIcon={upload.isPending ? <CircularProgress size={16} /> : <UploadFileIcon />} disabled={upload.isPending}>
          {t("upload.button")}
          <input
            type="file"
            hidden
            accept=".csv,.xls,.xlsx"
            data-testid="contacts-upload-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              onUpload(file);
            }}
          />
        </Button>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
          {t("add")}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, overflow: "auto" }} onScroll={onScroll} data-testid="contacts-list">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 48 }} />
              <TableCell>{t("fields.name")}</TableCell>
              <TableCell>{t("fields.number")}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("fields.email")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {contacts.map((contact) => (
              <TableRow key={contact.id} hover data-testid="contact-row">
                <TableCell>
                  <Avatar src={contact.profilePicUrl || undefined} sx={{ width: 32, height: 32 }}>
                    {contact.name.slice(0, 1).toUpperCase()}
                  </Avatar>
                </TableCell>
                <TableCell>{contact.name}</TableCell>
                <TableCell>{contact.number}</TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{contact.email}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <Tooltip title={t("startTicket")}>
                    <IconButton size="small" onClick={() => setStarting(contact)} aria-label={t("startTicket")}>
                      <WhatsAppIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {canSchedule && (
                    <Tooltip title={t("schedule")}>
                      <IconButton size="small" component={Link} to={`/schedules?contactId=${contact.id}`} aria-label={t("schedule")}>
                        <ScheduleIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  <Tooltip title={t("common:edit")}>
                    <IconButton size="small" onClick={() => setEditing(contact)} aria-label={t("common:edit")}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {isAdmin && (
                    <Tooltip title={t("common:delete")}>
                      <IconButton size="small" onClick={() => setDeleting(contact)} aria-label={t("common:delete")}>
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {(query.isLoading || query.isFetchingNextPage) && (
          <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
            <CircularProgress size={24} />
          </Box>
        )}
        {!query.isLoading && contacts.length === 0 && (
          <Typography sx={{ p: 3, textAlign: "center" }} color="text.secondary">
            {t("empty")}
          </Typography>
        )}
      </Paper>
      {editing && <ContactDialog contact={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {starting && <NewTicketDialog open initialContact={starting} onClose={() => setStarting(null)} />}
      <ConfirmDeleteDialog
        target={deleting}
        title={t("deleteConfirm.title", { name: deleting?.name ?? "" })}
        deletedText={t("deleted")}
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        {t("deleteConfirm.text")}
      </ConfirmDeleteDialog>
    </Box>
  );
}
