import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, ListItemText, MenuItem, Stack, Switch, TextField } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { UserResponse } from "@atende/shared/contracts/http/users";
import { can, type Profile } from "@atende/shared/domain/permissions/permissions";
import { userCreateSchema, userUpdateSchema } from "@atende/shared/domain/users/users";
import { useSessionUser } from "../../../lib/session/session-context";
import { fieldError } from "../../../lib/form-error";
import { toast } from "../../../lib/toast";
import { connectionsOptions, queuesOptions } from "../../../lib/pickers";
import { useUserDialogBlock } from "../../../lib/service-level-slots";
import { type UserFormValues, useSaveUser } from "../api/users";

const translateIssue = (message?: string) => (message ? fieldError({ type: "zod", message } as FieldError) : undefined);

/**
 * Add or edit a user. The profile and queue pickers appear only where the permission rules allow
 * (user-modal:editProfile, user-modal:editQueues); `companyId` lets the operator add to another company.
 */
export function UserDialog({ user, companyId, onClose, children }: { user: UserResponse | null; companyId?: number; onClose: () => void; children?: ReactNode }) {
  const { t } = useTranslation("users");
  const me = useSessionUser();
  const Capacity = useUserDialogBlock();
  const save = useSaveUser();
  const foreign = companyId !== undefined && companyId !== me.companyId;
  const queues = useQuery({ ...queuesOptions(), enabled: !foreign });
  const connections = useQuery({ ...connectionsOptions(), enabled: !foreign });
  const [values, setValues] = useState<UserFormValues>({
    name: user?.name ?? "",
    email: user?.email ?? "",
    password: "",
    profile: user?.profile ?? "user",
    queueIds: user?.queueIds ?? [],
    whatsappId: user?.whatsappId ?? "",
    allTicket: user?.allTicket ?? "desabled",
  });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const editProfile = can(me.profile, "user-modal:editProfile");
  const editQueues = can(me.profile, "user-modal:editQueues") && !foreign;

  const submit = () => {
    const schema = user ? userUpdateSchema : userCreateSchema;
    const parsed = schema.safeParse({ ...values, whatsappId: values.whatsappId === "" ? null : values.whatsappId });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), translateIssue(i.message)])));
      return;
    }
    setErrors({});
    save.mutate(
      { id: user?.id, input: { ...values, whatsappId: values.whatsappId === "" ? null : values.whatsappId, ...(companyId ? { companyId } : {}) } },
      {
        onSuccess: () => {
          toast.success(t("saved"));
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{user ? t("edit") : t("add")}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField label={t("fields.name")} value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} error={!!errors.name} helperText={errors.name} fullWidth autoFocus />
            <TextField label={t("fields.password")} type="password" autoComplete="new-password" value={values.password} onChange={(e) => setValues({ ...values, password: e.target.value })} error={!!errors.password} helperText={errors.password} fullWidth />
          </Stack>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField label={t("fields.email")} type="email" disabled={!editProfile} value={values.email} onChange={(e) => setValues({ ...values, email: e.target.value })} error={!!errors.email} helperText={errors.email} fullWidth />
            {editProfile && (
              <TextField select label={t("fields.profile")} value={values.profile} onChange={(e) => setValues({ ...values, profile: e.target.value as Profile })} sx={{ minWidth: 160 }} data-testid="user-profile">
                <MenuItem value="admin">{t("profiles.admin")}</MenuItem>
                <MenuItem value="supervisor">{t("profiles.supervisor")}</MenuItem>
                <MenuItem value="user">{t("profiles.user")}</MenuItem>
              </TextField>
            )}
          </Stack>
          {editQueues && (
            <TextField
              select
              label={t("fields.queues")}
              value={values.queueIds}
              onChange={(e) => setValues({ ...values, queueIds: (e.target.value as unknown as number[]).map(Number) })}
              slotProps={{ select: { multiple: true, renderValue: (ids) => (queues.data ?? []).filter((q) => (ids as number[]).includes(q.id)).map((q) => q.name).join(", ") } }}
              fullWidth
            >
              {(queues.data ?? []).map((q) => (
                <MenuItem key={q.id} value={q.id}>
                  <Checkbox checked={values.queueIds.includes(q.id)} size="small" />
                  <ListItemText primary={q.name} />
                </MenuItem>
              ))}
            </TextField>
          )}
          {editProfile && !foreign && (
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2} alignItems={{ sm: "center" }}>
              <TextField select label={t("fields.whatsapp")} value={values.whatsappId ?? ""} onChange={(e) => setValues({ ...values, whatsappId: e.target.value === "" ? "" : Number(e.target.value) })} fullWidth>
                <MenuItem value="">{t("noConnection")}</MenuItem>
                {(connections.data ?? []).map((w) => (
                  <MenuItem key={w.id} value={w.id}>
                    {w.name}
                  </MenuItem>
                ))}
              </TextField>
              <FormControlLabel
                control={<Switch checked={values.allTicket === "enabled"} onChange={(e) => setValues({ ...values, allTicket: e.target.checked ? "enabled" : "desabled" })} />}
                label={t("fields.allTicket")}
                sx={{ minWidth: 220 }}
              />
            </Stack>
          )}
        </Stack>
        {user && !foreign && me.profile === "admin" && Capacity && <Capacity userId={user.id} />}
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" onClick={submit} loading={save.isPending}>
          {user ? t("common:save") : t("common:add")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
