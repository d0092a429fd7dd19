/**
 * A tiny toast store rendered by <Toaster /> (components/ui/toaster.tsx), usable outside React too:
 * `toast.success(t("auth:loginSuccess"))`, `toast.error(...)`. For server errors use `toastError(err)`.
 */
export type ToastSeverity = "success" | "error" | "warning" | "info";
export type Toast = { id: number; message: string; severity: ToastSeverity; durationMs: number };

/** Spec 1 section 9: error toasts stay 2000 ms. */
export const TOAST_DURATION_MS = 2000;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const dismissToast = (id: number) => {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
};

const show = (severity: ToastSeverity, message: string, durationMs = TOAST_DURATION_MS) => {
  const item = { id: nextId++, message, severity, durationMs };
  toasts = [...toasts.slice(-2), item];
  emit();
  setTimeout(() => dismissToast(item.id), durationMs);
  return item.id;
};

export const toast = {
  success: (message: string, durationMs?: number) => show("success", message, durationMs),
  error: (message: string, durationMs?: number) => show("error", message, durationMs),
  warning: (message: string, durationMs?: number) => show("warning", message, durationMs),
  info: (message: string, durationMs?: number) => show("info", message, durationMs),
};

export const getToasts = () => toasts;

/** Drops every toast (tests). */
export const clearToasts = () => {
  toasts = [];
  emit();
};
export const subscribeToasts = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
