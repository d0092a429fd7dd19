import AddIcon from "@mui/icons-material/Add";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import CancelIcon from "@mui/icons-material/Cancel";
import { Box, Button, CircularProgress, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { DEBOUNCE_SEARCH_MS, SEARCH_MIN_CHARS } from "@atende/shared/constants/business";
import type { UserEventData, UserResponse } from "@atende/shared/contracts/http/users";
import { useRealtime } from "../../../lib/realtime";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { searchTerm, useDebounced } from "../../../hooks/use-debounced";
import { useInfiniteQueryScroll } from "../../../hooks/use-infinite-scroll";
import { applyUserEvent, useDeleteUser, useUsersList } from "../api/users";
import { UserDialog } from "./user-dialog";
import { EditDeleteActions } from "../../../components/ui/edit-delete-actions";

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
  const [deleting, setDeleting] = useState<UserResponse | null>(null);
  const onScroll = useInfiniteQueryScroll(query);
  useRealtime<UserEventData>("user", (data) => applyUserEvent(qc, data));

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, height: { xs: "calc(100dvh - 56px)", sm: "calc(100dvh - 64px)" }, display: "flex", flexDirection: "column", boxSizing: "border-box" }}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} alignItems={{ sm: "center" }} sx={{ mb: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t("title")}
        </Typography>
        <TextField size="small" placeholder={t("search")} value={text} onChange={(e) => setText(e.target.value)} slotProps={{ htmlInput: { "aria-label": t("search") } }} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
          {t("add")}
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, overflow: "auto" }} onScroll={onScroll} data-testid="users-list">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell>{t("fields.id")}</TableCell>
              <TableCell>{t("fields.online")}</TableCell>
              <TableCell>{t("fields.name")}</TableCell>
              <TableCell>{t("fields.email")}</TableCell>
              <TableCell>{t("fields.profile")}</TableCell>
              <TableCell align="right">{t("common:actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.map((u) => (
              <TableRow key={u.id} hover data-testid="user-row">
                <TableCell>{u.id}</TableCell>
                <TableCell>
                  {u.online ? (
                    <CheckCircleIcon fontSize="small" color="success" titleAccess={t("online")} />
                  ) : (
                    <CancelIcon fontSize="small" color="error" titleAccess={t("offline")} />
                  )}
                </TableCell>
                <TableCell>{u.name}</TableCell>
                <TableCell>{u.email}</TableCell>
                <TableCell>{t(`profiles.${u.profile}`, { defaultValue: u.profile })}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                  <EditDeleteActions onEdit={() => setEditing(u)} onDelete={() => setDeleting(u)} />
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
      </Paper>
      {editing && <UserDialog user={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
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
