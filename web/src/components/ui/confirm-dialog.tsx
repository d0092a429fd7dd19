import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** A yes/no confirmation (delete note, delete contact, close all). */
export function ConfirmDialog({ open, title, children, onConfirm, onClose, busy }: { open: boolean; title: string; children?: ReactNode; onConfirm: () => void; onClose: () => void; busy?: boolean }) {
  const { t } = useTranslation("tickets");
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      {children && (
        <DialogContent>
          <Typography>{children}</Typography>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t("common:cancel")}</Button>
        <Button variant="contained" color="error" onClick={onConfirm} disabled={busy}>
          {t("confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
