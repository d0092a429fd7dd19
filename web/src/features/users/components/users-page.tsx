import AddIcon from "@mui/icons-material/Add";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import CancelIcon from "@mui/icons-material/Cancel";
import LockResetIcon from "@mui/icons-material/LockReset";
import { Button, IconButton, Tooltip } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS, SEARCH_MIN_CHARS } from "@atende/shared/constants/business";
import type { UserEventData, UserResponse } from "@atende/shared/contracts/http/users";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog";
import { DataTable } from "../../../components/ui/data-table";
import { toast } from "../../../lib/toast";
import { useSessionUser } from "../../../lib/session/session-context";
import { useRealtime } from "../../../lib/realtime";
import { searchTerm, useDebounced } from "../../../hooks/use-debounced";
import { applyUserEvent, useDeleteUser, useResetUserMfa, useUsersList } from "../api/users";
import { UserDialog } from "./user-dialog";

/** /users: search (3 characters, 500 ms), infinite scroll, online icon, add/edit/delete; live on the user channel. */
export function UsersPage() {
  const { t } = useTranslation("users");
  const qc = useQueryClient();
  const [text, setText] = useState("");
  const search = useDebounced(searchTerm(text, SEARCH_MIN_CHARS), DEBOUNCE_SEARCH_MS);
  const query = useUsersList(search);
  const remove = useDeleteUser();
  const users = useMemo(() => (query.data?.pages ?? []).flatMap((p) => p.users), [query.data]);
  const [editing, setEditing] = useState<UserResponse | "new" | null>(null);
  const me = useSessionUser();
  const resetMfa = useResetUserMfa();
  const [resetting, setResetting] = useState<UserResponse | null>(null);
  useRealtime<UserEventData>("user", (data) => applyUserEvent(qc, data));

  return (
    <>
      <DataTable
        title={t("title")}
        search={{ value: text, onChange: setText, label: t("search") }}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
            {t("add")}
          </Button>
        }
        query={query}
        scrollTestId="users-list"
        columns={[
          { header: t("fields.id"), cell: (u) => u.id },
          {
            header: t("fields.online"),
            cell: (u) =>
              u.online ? <CheckCircleIcon fontSize="small" color="success" titleAccess={t("online")} /> : <CancelIcon fontSize="small" color="error" titleAccess={t("offline")} />,
          },
          { header: t("fields.name"), cell: (u) => u.name },
          { header: t("fields.email"), cell: (u) => u.email },
          { header: t("fields.profile"), cell: (u) => t(`profiles.${u.profile}`, { defaultValue: u.profile }) },
        ]}
        rows={users}
        rowTestId="user-row"
        actions={(u) =>
          u.id === me.id ? null : (
            <Tooltip title={t("mfaReset.action")}>
              <IconButton size="small" aria-label={t("mfaReset.action")} data-testid="user-mfa-reset" onClick={() => setResetting(u)}>
                <LockResetIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )
        }
        onEdit={setEditing}
        remove={{ mutation: remove, title: (u) => t("deleteConfirm.title", { name: u.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      <ConfirmDialog
        open={resetting !== null}
        title={t("mfaReset.title", { name: resetting?.name ?? "" })}
        busy={resetMfa.isPending}
        onClose={() => setResetting(null)}
        onConfirm={() =>
          resetting &&
          resetMfa.mutate(resetting.id, {
            onSuccess: () => toast.success(t("mfaReset.done")),
            onSettled: () => setResetting(null),
          })
        }
      >
        {t("mfaReset.text")}
      </ConfirmDialog>
      {editing && <UserDialog user={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
