import { Avatar, Box, Button, Divider, Stack, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ContactCreateResponse, ContactListResponse, ContactView } from "@atende/shared/contracts/http/contacts";
import { DEBOUNCE_VCARD_MS } from "@atende/shared/constants/business";
import { api } from "../../../../lib/api-client";
import { toastError } from "../../../../lib/toast-error";
import { useContactsList } from "../../../../lib/pickers";
import { parseVcard } from "../../shared/message-parsers";
import { NewTicketDialog } from "../../tickets/components/new-ticket-dialog";

const sameNumber = (list: ContactView[] | undefined, number: string) => list?.find((c) => c.number.replace(/\D/g, "") === number) ?? null;

/** Finds the shared contact by number, or registers it (POST /contacts answers the existing one when it exists). */
const findOrCreate = async (name: string, number: string, known: ContactView | null): Promise<ContactView> => {
  if (known) return known;
  const found = await api.get<ContactListResponse>("/contacts", { query: { searchParam: number, pageNumber: 1 } });
  const same = sameNumber(found.contacts, number);
  if (same) return same;
  const created = await api.post<ContactCreateResponse>("/contacts", { name: name || number, number, email: "", extraInfo: [] });
  return created.existingContact ?? created;
};

/** Shared contact (vcard): name and numbers, with 'Conversar' that starts a ticket with that contact. */
export function VcardCard({ body }: { body: string }) {
  const { t } = useTranslation("messages");
  const card = parseVcard(body);
  const number = card?.numbers[0] ?? "";
  const [contact, setContact] = useState<ContactView | null>(null);
  const [busy, setBusy] = useState(false);
  // the registered contact is looked up once the card has been on screen for 1500 ms (spec 1 section 9)
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), DEBOUNCE_VCARD_MS);
    return () => clearTimeout(timer);
  }, []);
  const lookup = useContactsList(number, ready && !!number);
  const known = sameNumber(lookup.data?.pages[0]?.contacts, number);
  if (!card) return <Typography variant="body2">{body}</Typography>;
  const chat = () => {
    setBusy(true);
    findOrCreate(card.name, number, known)
      .then(setContact, toastError)
      .finally(() => setBusy(false));
  };
  return (
    <Box data-testid="vcard-card" sx={{ minWidth: 200 }}>
      <Stack direction="row" spacing={1} alignItems="center">
        <Avatar>{(card.name || number).slice(0, 1).toUpperCase()}</Avatar>
        <Box>
          <Typography fontWeight={600}>{card.name || number}</Typography>
          <Typography variant="body2" color="text.secondary">
            {card.numbers.join(", ")}
          </Typography>
        </Box>
      </Stack>
      <Divider sx={{ my: 0.5 }} />
      <Button size="small" fullWidth onClick={chat} disabled={!number || busy}>
        {t("vcard.chat")}
      </Button>
      {contact && <NewTicketDialog open initialContact={contact} onClose={() => setContact(null)} />}
    </Box>
  );
}
