import AddIcon from "@mui/icons-material/Add";
import ImportContactsIcon from "@mui/icons-material/ImportContacts";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import ScheduleIcon from "@mui/icons-material/Schedule";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import MergeIcon from "@mui/icons-material/CallMerge";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { Avatar, Button, CircularProgress, IconButton, Tooltip } from "@mui/material";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS, SEARCH_MIN_CHARS } from "@atende/shared/constants/business";
import type { ContactEventData, ContactImportState, ContactView } from "@atende/shared/contracts/http/contacts";
import { Link } from "react-router";
import { useIsAdmin, useSession } from "../../../../lib/session/session-context";
import { DataTable } from "../../../../components/ui/data-table";
import { searchTerm, useDebounced } from "../../../../hooks/use-debounced";
import { NewTicketDialog } from "../../tickets/components/new-ticket-dialog";
import { ApiError } from "../../../../lib/api-client";
import { onRealtimeOpen, useRealtime } from "../../../../lib/realtime";
import { toast } from "../../../../lib/toast";
import { toastError } from "../../../../lib/toast-error";
import { fetchImportState, isContactUploadFile, useDeleteContact, useImportPhoneContacts, useUploadContacts } from "../api/contacts";
import { useContactsList } from "../../../../lib/pickers";
import { ContactDialog } from "./contact-dialog";
import { DuplicatesDialog } from "./duplicates-dialog";
import { MergeDialog } from "./merge-dialog";

/** How a background import ended (a `contact` reload event's `import`, or GET /contacts/import/{requestId}). */
type ImportEnd = ContactImportState;
/** While an import runs, how often the page asks for its state besides listening for its end (a socket may miss it). */
const IMPORT_CHECK_MS = 15_000;

const HIDDEN_ON_PHONES = { display: { xs: "none", md: "table-cell" } } as const;

/** /contacts: search (3 characters, 500 ms), infinite scroll, add/edit, delete (admins), start a ticket; live via the contact event. */
export function ContactsPage() {
  const { t } = useTranslation("contacts");
  const { t: tm } = useTranslation("contactMerge");
  const isAdmin = useIsAdmin();
  // contacts merged, never duplicated (issue 34): admins only, as deleting (a merge deletes the merged contact)
  const [merging, setMerging] = useState<ContactView | null>(null);
  const [duplicates, setDuplicates] = useState(false);
  const canSchedule = useSession().planFlags.useSchedules;
  const [text, setText] = useState("");
  const search = useDebounced(searchTerm(text, SEARCH_MIN_CHARS), DEBOUNCE_SEARCH_MS);
  const query = useContactsList(search);
  const remove = useDeleteContact();
  const contacts = useMemo(() => (query.data?.pages ?? []).flatMap((p) => p.contacts), [query.data]);
  const [editing, setEditing] = useState<ContactView | "new" | null>(null);
  const [starting, setStarting] = useState<ContactView | null>(null);
  const upload = useUploadContacts();
  const importPhone = useImportPhoneContacts();
  // a phone import or a large spreadsheet runs in the background; its `contact` reload events name the request
  const [importing, setImporting] = useState<{ requestId: string; kind: "phone" | "upload" } | null>(null);
  // an import may end before its request's answer reaches the page (a small phone book through a fast session host):
  // the ends seen for no import of this page are kept, and the answer that names one of them ends at once
  const endedEarly = useRef(new Map<string, ImportEnd>());
  const finished = useRef(new Set<string>());
  const finish = (kind: "phone" | "upload", end: ImportEnd) => {
    // the end may come twice (its event and a check of its state): one toast
    if (finished.current.has(end.requestId)) return;
    finished.current.add(end.requestId);
    setImporting(null);
    if (kind === "upload") {
      if (end.error) toastError(new ApiError(500, end.error, undefined));
      else toast.success(t("upload.queuedDone", { total: end.progress?.total ?? 0 }));
    } else if (end.error) toast.error(t(`errors:${end.error}`, { defaultValue: t("importPhone.failed") }));
    else toast.success(t("importPhone.done"));
  };
  const begin = (requestId: string, kind: "phone" | "upload") => {
    const end = endedEarly.current.get(requestId);
    if (end) return finish(kind, end);
    setImporting({ requestId, kind });
  };
  // an end published while this page's socket was closed (a reconnect, a socket not yet open) never arrives as an
  // event: the page asks for the import's state when the socket opens again, and every IMPORT_CHECK_MS meanwhile
  useEffect(() => {
    if (!importing) return;
    const { requestId, kind } = importing;
    let stopped = false;
    const check = () =>
      void fetchImportState(requestId).then(
        (state) => !stopped && state.done && finish(kind, state),
        () => undefined, // the event or the next check ends it
      );
    const timer = setInterval(check, IMPORT_CHECK_MS);
    const off = onRealtimeOpen(check);
    return () => {
      stopped = true;
      clearInterval(timer);
      off();
    };
  }, [importing]);
  useRealtime<ContactEventData>("contact", (data) => {
    if (data.action !== "reload" || !data.import?.done) return;
    if (data.import.requestId !== importing?.requestId) {
      const early = endedEarly.current;
      early.set(data.import.requestId, data.import);
      if (early.size > 20) early.delete(early.keys().next().value!);
      return;
    }
    finish(importing.kind, data.import);
  });

  const onUpload = (file: File | undefined) => {
    if (!file) return;
    if (!isContactUploadFile(file.name)) return void toast.error(t("upload.badType"));
    upload.mutate(file, {
      onSuccess: (r) => {
        if (r.queued && r.requestId) {
          toast.info(t("upload.queued", { count: r.queued }));
          begin(r.requestId, "upload");
        } else toast.success(t("upload.done", { created: r.created, updated: r.updated, unchanged: r.unchanged, invalid: r.invalid + r.duplicates }));
        // LGPD: rows of erased people are refused, never silently imported
        if (r.erased) toast.warning(t("lgpd:erasedSkipped", { count: r.erased }));
      },
      onError: (err) => (err instanceof ApiError && err.code === "ERR_INVALID_IMPORT_FILE" ? toast.error(t("upload.badType")) : toastError(err)),
    });
  };
  const onImportPhone = () =>
    importPhone.mutate(undefined, {
      onSuccess: (r) => {
        toast.info(t("importPhone.started"));
        begin(r.requestId, "phone");
      },
    });

  return (
    <>
      <DataTable
        title={`${t("title")} ${query.data ? `(${query.data.pages[0]?.count ?? 0})` : ""}`}
        search={{ value: text, onChange: setText, label: t("search") }}
        toolbar={
          <>
            {isAdmin && (
              <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => setDuplicates(true)}>
                {tm("duplicates")}
              </Button>
            )}
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
          </>
        }
        query={query}
        scrollTestId="contacts-list"
        columns={[
          {
            headSx: { width: 48 },
            cell: (contact) => (
              <Avatar src={contact.profilePicUrl || undefined} sx={{ width: 32, height: 32 }}>
                {contact.name.slice(0, 1).toUpperCase()}
              </Avatar>
            ),
          },
          { header: t("fields.name"), cell: (contact) => contact.name },
          { header: t("fields.number"), cell: (contact) => contact.number },
          { header: t("fields.email"), headSx: HIDDEN_ON_PHONES, sx: HIDDEN_ON_PHONES, cell: (contact) => contact.email },
        ]}
        rows={contacts}
        rowTestId="contact-row"
        empty={t("empty")}
        actions={(contact) => (
          <>
            <Tooltip title={t("startTicket")}>
              <IconButton size="small" onClick={() => setStarting(contact)} aria-label={t("startTicket")}>
                <WhatsAppIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            {isAdmin && (
              <Tooltip title={tm("merge")}>
                <IconButton size="small" onClick={() => setMerging(contact)} aria-label={tm("merge")}>
                  <MergeIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
            {canSchedule && (
              <Tooltip title={t("schedule")}>
                <IconButton size="small" component={Link} to={`/schedules?contactId=${contact.id}`} aria-label={t("schedule")}>
                  <ScheduleIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </>
        )}
        onEdit={setEditing}
        remove={{ mutation: remove, title: (contact) => t("deleteConfirm.title", { name: contact.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
        canDelete={() => isAdmin}
      />
      {editing && <ContactDialog contact={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {starting && <NewTicketDialog open initialContact={starting} onClose={() => setStarting(null)} />}
      {merging && <MergeDialog from={merging} onClose={() => setMerging(null)} />}
      {duplicates && <DuplicatesDialog onClose={() => setDuplicates(false)} />}
    </>
  );
}
