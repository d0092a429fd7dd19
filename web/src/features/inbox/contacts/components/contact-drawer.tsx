import CloseIcon from "@mui/icons-material/Close";
import { Avatar, Box, Button, Divider, Drawer, IconButton, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TicketView } from "@atende/shared/contracts/http/tickets";
import { TicketNotes } from "../../ticket-notes/components/ticket-notes";
import { useContact } from "../../../../lib/pickers";
import { ContactDialog } from "./contact-dialog";
import { useContactDrawerBlock } from "../../../../lib/contact-drawer-slot";
import { useSessionUser } from "../../../../lib/session/session-context";

export const CONTACT_DRAWER_WIDTH = 320;

/** Contact side drawer (320 px): data, edit, internal notes, extra info. */
export function ContactDrawer({ open, onClose, ticket }: { open: boolean; onClose: () => void; ticket: TicketView }) {
  const { t } = useTranslation("contacts");
  const detail = useContact(open ? ticket.contactId : undefined);
  const contact = detail.data ?? (ticket.contact ? { ...ticket.contact, companyId: 0, lid: null, whatsappId: null, createdAt: "", updatedAt: "" } : null);
  const [editing, setEditing] = useState(false);
  const Extra = useContactDrawerBlock();
  const isAdmin = useSessionUser().profile === "admin";
  return (
    <Drawer anchor="right" variant="persistent" open={open} sx={{ width: open ? CONTACT_DRAWER_WIDTH : 0, flexShrink: 0, "& .MuiDrawer-paper": { width: CONTACT_DRAWER_WIDTH, position: "absolute", boxSizing: "border-box" } }}>
      <Stack direction="row" alignItems="center" sx={{ px: 1, py: 1, borderBottom: 1, borderColor: "divider" }}>
        <IconButton onClick={onClose} aria-label={t("common:close")}>
          <CloseIcon />
        </IconButton>
        <Typography fontWeight={600}>{t("drawer.title")}</Typography>
      </Stack>
      {open && contact && (
        <Box sx={{ p: 2, overflowY: "auto" }} data-testid="contact-drawer">
          <Stack alignItems="center" spacing={1}>
            <Avatar src={contact.profilePicUrl || undefined} sx={{ width: 96, height: 96 }}>
              {contact.name.slice(0, 1).toUpperCase()}
            </Avatar>
            <Typography fontWeight={600}>{contact.name}</Typography>
            <Typography variant="body2">{contact.number}</Typography>
            {contact.email && (
              <Typography variant="body2" component="a" href={`mailto:${contact.email}`}>
                {contact.email}
              </Typography>
            )}
            <Button variant="outlined" size="small" onClick={() => setEditing(true)}>
              {t("drawer.edit")}
            </Button>
          </Stack>
          <Divider sx={{ my: 2 }} />
          <TicketNotes ticketId={ticket.id} contactId={ticket.contactId} />
          <Divider sx={{ my: 2 }} />
          {Extra && isAdmin && !contact.isGroup && (
            <>
              <Extra contactId={ticket.contactId} contactName={contact.name} onErased={onClose} />
              <Divider sx={{ my: 2 }} />
            </>
          )}
          <Typography variant="subtitle2" gutterBottom>
            {t("fields.extraInfo")}
          </Typography>
          {contact.extraInfo?.length ? (
            contact.extraInfo.map((info, i) => (
              <Box key={`${info.name}-${i}`} sx={{ mb: 1 }}>
                <Typography variant="caption" color="text.secondary">
                  {info.name}
                </Typography>
                <Typography variant="body2">{info.value}</Typography>
              </Box>
            ))
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t("drawer.noExtra")}
            </Typography>
          )}
        </Box>
      )}
      {editing && contact && <ContactDialog contact={contact} onClose={() => setEditing(false)} />}
    </Drawer>
  );
}
