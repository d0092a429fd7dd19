import { type ComponentType, createContext, useContext } from "react";

/**
 * Blocks the presence/distribution feature adds to other features' screens (docs/adr/0032), provided by the app
 * shell (app/app.tsx): the queue dialog's distribution settings, the user dialog's capacity, the dashboard's
 * attendants panel. Features never import each other (ADR 0022): each screen renders whatever the shell put here,
 * and nothing when nothing was (component tests).
 */
export const QueueDialogSlot = createContext<ComponentType<{ queueId: number }> | null>(null);
export const UserDialogSlot = createContext<ComponentType<{ userId: number }> | null>(null);
export const DashboardSlot = createContext<ComponentType | null>(null);
export const useQueueDialogBlock = () => useContext(QueueDialogSlot);
export const useUserDialogBlock = () => useContext(UserDialogSlot);
export const useDashboardBlock = () => useContext(DashboardSlot);
