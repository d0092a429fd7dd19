import AddIcon from "@mui/icons-material/Add";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import BlockIcon from "@mui/icons-material/Block";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import { Box, Button, CircularProgress, Tooltip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { DEBOUNCE_SEARCH_MS } from "@atende/shared/constants/business";
import type { ContactListItemEventData, ContactListItemResponse } from "@atende/shared/contracts/http/contact-lists";
import { isContactListImportFile } from "@atende/shared/domain/contact-lists/contact-list";
import { DataTable } from "../../../components/ui/data-table";
import { ApiError } from "../../../lib/api-client";
import { useRealtime } from "../../../lib/realtime";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { useDebounced } from "../../../hooks/use-debounced";
import { contactListKeys, useContactList, useContactListItems, useDeleteContactListItem, useImportContactList } from "../api/contact-lists";
import { ContactListItemDialog } from "./contact-list-item-dialog";

/** The WhatsApp validity of an item: valid, not on WhatsApp, or still being checked. */
function ValidityIcon({ item }: { item: ContactListItemResponse }) {
  const { t } = useTranslation("contactLists");
  const [label, icon] = item.isWhatsappValid
    ? [t("items.valid"), <CheckCircleIcon key="v" fontSize="small" color="success" />]
    : item.checkedAt
      ? [t("items.invalid"), <BlockIcon key="i" fontSize="small" color="error" />]
      : [t("items.checking"), <HourglassEmptyIcon key="c" fontSize="small" color="disabled" />];
  return (
    <Tooltip title={label}>
      <Box component="span" role="img" aria-label={label} data-testid="validity" data-validity={item.isWhatsappValid ? "valid" : item.checkedAt ? "invalid" : "checking"} sx={{ display: "inline-flex" }}>
        {icon}
      </Box>
    </Tooltip>
  );
}

/** /contact-lists/:contactListId/contacts: search, import (.xls/.xlsx), add/edit/delete, validity per row (live). */
export function ContactListItemsPage() {
  const { t } = useTranslation("contactLists");
  const qc = useQueryClient();
  const navigate = useNavigate();
  const contactListId = Number(useParams().contactListId);
  const list = useContactList(contactListId);
  const [text, setText] = useState("");
  const search = useDebounced(text.trim().toLowerCase(), DEBOUNCE_SEARCH_MS);
  const query = useContactListItems(contactListId, search);
  const remove = useDeleteContactListItem();
  const importFile = useImportContactList(contactListId);
  const records = useMemo(() => (query.data?.pages ?? []).flatMap((p) => p.contacts), [query.data]);
  const [editing, setEditing] = useState<ContactListItemResponse | "new" | null>(null);
  useRealtime<ContactListItemEventData>("ContactListItem", (data) => {
    const listId = "record" in data ? data.record.contactListId : data.contactListId;
    if (listId === contactListId) void qc.invalidateQueries({ queryKey: contactListKeys.items(contactListId) });
  });
  useRealtime("ContactList", () => void qc.invalidateQueries({ queryKey: contactListKeys.one(contactListId) }));

  const onImport = (file: File | undefined) => {
    if (!file) return;
    if (!isContactListImportFile(file.name)) return void toast.error(t("import.badType"));
    importFile.mutate(file, {
      onSuccess: (r) => {
        void (r.queued > 0 ? toast.info(t("import.queued", { count: r.queued })) : toast.success(t("import.done", { added: r.added, duplicates: r.duplicates, invalid: r.invalid })));
        // LGPD: rows of erased people are refused, never silently imported
        if (r.erased) toast.warning(t("lgpd:erasedSkipped", { count: r.erased }));
      },
      onError: (err) => (err instanceof ApiError && err.code === "ERR_INVALID_IMPORT_FILE" ? toast.error(t("import.badType")) : toastError(err)),
    });
  };

  return (
    <>
      <DataTable
        title={list.data ? t("items.titleOf", { name: list.data.name }) : t("items.title")}
        search={{ value: text, onChange: setText, label: t("search") }}
        toolbar={
          <>
            <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate("/contact-lists")}>
              {t("items.lists")}
            </Button>
            <Button variant="outlined" component="label" startIcon={importFile.isPending ? <CircularProgress size={16} /> : <UploadFileIcon />} disabled={importFile.isPending}>
              {t("import.button")}
              <input
                type="file"
                hidden
                accept=".xls,.xlsx"
                data-testid="import-input"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = "";
                  onImport(file);
                }}
              />
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
              {t("items.add")}
            </Button>
          </>
        }
        query={query}
        columns={[
          { padding: "checkbox", align: "center", cell: (i) => <ValidityIcon item={i} /> },
          { header: t("items.fields.name"), cell: (i) => i.name },
          { header: t("items.fields.number"), cell: (i) => i.number },
          { header: t("items.fields.email"), cell: (i) => i.email },
        ]}
        rows={records}
        rowTestId="contact-list-item-row"
        empty={t("items.empty")}
        onEdit={setEditing}
        remove={{ mutation: remove, title: (i) => t("items.deleteConfirm.title", { name: i.name }), text: t("items.deleteConfirm.text"), deletedText: t("items.deleted") }}
      />
      {editing && <ContactListItemDialog contactListId={contactListId} record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
