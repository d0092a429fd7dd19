import { Alert, Stack } from "@mui/material";
import { useSyncExternalStore } from "react";
import { dismissToast, getToasts, subscribeToasts } from "../../lib/toast";

/** Renders the toasts of lib/toast.ts (top right, newest last). Mounted once by the app providers. */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, getToasts);
  if (toasts.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ position: "fixed", top: 72, right: 16, left: { xs: 16, sm: "auto" }, zIndex: (theme) => theme.zIndex.snackbar, maxWidth: { sm: 420 } }}>
      {toasts.map((item) => (
        <Alert key={item.id} severity={item.severity} variant="filled" onClose={() => dismissToast(item.id)} role={item.severity === "error" ? "alert" : "status"}>
          {item.message}
        </Alert>
      ))}
    </Stack>
  );
}
