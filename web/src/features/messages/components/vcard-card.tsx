import { Avatar, Box, Button, Divider, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { NewTicketDialog } from "../../tickets/components/new-ticket-dialog";
import { parseVcard } from "../../inbox-shared/message-parsers";
import { useContactsList } from "../../contacts/api/contacts";

/** Shared contact (vcard): name and number, with 'Conversar' that starts a ticket with that contact when it exists. */
export function VcardCard({ body }: { body: string }) {
  const { t } = useTranslation("messages");
  const card = parseVcard(body);
  const number = card?.numbers[0] ?? "";
  const [chat, setChat] = useState(false);
  const lookup = useContactsList(number, chat && !!number);
  const found = lookup.data?.pages[0]?.contacts.find((c) => c.number.replace(/\D/g, "").endsWith(number.slice(-8))) ?? null;
  if (!card) return <Typography variant="body2">{body}</Typography>;
  return (
    <Box data-testid="vcard-card" sx={{ minWidth: 200 }}>
      <Stack direction="row" spacing={1} alignItems="center">
        <Avatar>{card.name.slice(0, 1).toUpperCase()}</Avatar>
        <Box>
          <Typography fontWeight={600}>{card.name || number}</Typography>
          <Typography variant="body2" color="text.secondary">
            {card.numbers.join(", ")}
          </Typography>
        </Box>
      </Stack>
      <Divider sx={{ my: 0.5 }} />
      <Button size="small" fullWidth onClick={() => setChat(true)} disabled={!number}>
        {t("vcard.chat")}
      </Button>
      {chat && found && <NewTicketDialog open initialContact={found} onClose={() => setChat(false)} />}
      {chat && !lookup.isFetching && lookup.isFetched && !found && (
        <Typography variant="caption" color="text.secondary">
          {t("vcard.notFound")}
        </Typography>
      )}
    </Box>
  );
}
