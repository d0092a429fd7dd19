import { Box, CircularProgress } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import type { MessageView } from "@atende/shared/contracts/http/messages";
import { canSeeTicket } from "@atende/shared/domain/tickets/visibility";
import { useSessionUser } from "../../../../lib/session/session-context";
import { ApiError } from "../../../../lib/api-client";
import { useRealtimeRoom } from "../../../../lib/realtime";
import { toast } from "../../../../lib/toast";
import { toastError } from "../../../../lib/toast-error";
import { CONTACT_DRAWER_WIDTH, ContactDrawer } from "../../contacts/components/contact-drawer";
import { Composer } from "../../messages/components/composer";
import { MessagesList } from "../../messages/components/messages-list";
import { useTicketByUuid } from "../api/ticket";
import { TicketHeader } from "./ticket-header";
import { useTicketWindow } from "../../../../lib/cloud-api";
import { TemplateComposerButton, TemplatesOnlyComposer } from "../../messages/components/templates-only-composer";
import { ConversationSearch } from "../../search/components/conversation-search";
import { WhisperInput } from "../../messages/components/whisper-input";
import { SameContactBanner } from "../../contacts/components/same-contact-banner";

/**
 * The conversation of `/tickets/{uuid}`. A non-admin opening a ticket of a queue that is not theirs gets
 * 'Acesso não permitido' and goes back to the list (spec 1 section 5); an unknown ticket shows the error and goes back too.
 */
export function TicketView({ uuid }: { uuid: string }) {
  const { t } = useTranslation("tickets");
  const user = useSessionUser();
  const navigate = useNavigate();
  const query = useTicketByUuid(uuid);
  const ticket = query.data;
  const [drawer, setDrawer] = useState(false);
  const [replyTo, setReplyTo] = useState<MessageView | null>(null);
  // a search result opened with ?message=<id>, or the conversation's own search box (docs/adr/0035)
  const [params] = useSearchParams();
  const [searchFocus, setSearchFocus] = useState<string | null>(null);
  const focusId = searchFocus ?? params.get("message");
  const allowed = !ticket || canSeeTicket({ userId: user.id, profile: user.profile, queueIds: user.queues.map((q) => q.id), allTicket: user.allTicket }, ticket);
  useRealtimeRoom("joinChatBox", uuid, !!ticket && allowed);

  useEffect(() => {
    if (ticket && !allowed) {
      toast.error(t("accessDenied"));
      navigate("/tickets", { replace: true });
    }
  }, [ticket, allowed, navigate, t]);

  useEffect(() => {
    if (!query.error) return;
    if (query.error instanceof ApiError && (query.error.status === 403 || query.error.code === "ERR_NO_PERMISSION")) toast.error(t("accessDenied"));
    else toastError(query.error);
    navigate("/tickets", { replace: true });
  }, [query.error, navigate, t]);

  useEffect(() => {
    setReplyTo(null);
    setSearchFocus(null);
  }, [uuid]);
  // a Cloud API connection: the 24-hour window (docs/cloud-api.md); closed, only templates can be sent
  const cloudApi = ticket?.whatsapp?.provider === "cloudapi";
  const replyWindow = useTicketWindow(ticket?.id ?? null, cloudApi && allowed);

  if (!ticket || !allowed)
    return (
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "center", height: "100%" }}>
        <CircularProgress />
      </Box>
    );

  return (
    <Box sx={{ display: "flex", height: "100%", minHeight: 0, position: "relative", overflow: "hidden" }} data-testid="ticket-view" data-ticket-id={ticket.id}>
      <Box sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column", mr: drawer ? { md: `${CONTACT_DRAWER_WIDTH}px` } : 0 }}>
        <TicketHeader ticket={ticket} onContactClick={() => setDrawer((v) => !v)} replyWindow={cloudApi ? replyWindow.data : undefined} />
        <ConversationSearch ticketId={ticket.id} onFocus={setSearchFocus} />
        {ticket.whatsapp?.provider === "webchat" && <SameContactBanner contactId={ticket.contactId} />}
        <MessagesList ticketId={ticket.id} isGroup={ticket.isGroup} onReply={setReplyTo} noEditDelete={cloudApi} focusId={focusId} />
        {/* issue 34: a supervisor's or admin's whisper to the attendant (its own component, docs/adr/0102) */}
        <WhisperInput ticket={ticket} />
        {cloudApi && ticket.status === "open" && replyWindow.data?.kind === "closed" && ticket.whatsappId ? (
          <TemplatesOnlyComposer ticketId={ticket.id} whatsappId={ticket.whatsappId} contact={ticket.contact ?? undefined} />
        ) : (
          <Composer
            ticketId={ticket.id}
            status={ticket.status}
            replyTo={replyTo}
            onCancelReply={() => setReplyTo(null)}
            // templates are allowed whatever the window: the picker is offered while it is open too
            extraActions={cloudApi && ticket.whatsappId ? <TemplateComposerButton ticketId={ticket.id} whatsappId={ticket.whatsappId} contact={ticket.contact ?? undefined} /> : undefined}
          />
        )}
      </Box>
      <ContactDrawer open={drawer} onClose={() => setDrawer(false)} ticket={ticket} />
    </Box>
  );
}
