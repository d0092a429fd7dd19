import { type ComponentType, createContext, useContext } from "react";

/**
 * A block another feature adds to the inbox's contact drawer (LGPD: opt-out state, export, erasure), provided by
 * the app shell (app/app.tsx). Features never import each other (ADR 0022): the inbox renders whatever the shell
 * put here, and nothing when nothing was (component tests of the drawer).
 */
export type ContactDrawerBlock = ComponentType<{ contactId: number; contactName: string; onErased?: () => void }>;
export const ContactDrawerSlot = createContext<ContactDrawerBlock | null>(null);
export const useContactDrawerBlock = () => useContext(ContactDrawerSlot);
