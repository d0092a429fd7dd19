import { Alert, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText, Paper, Stack } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { DuplicateContact } from "@atende/shared/contracts/http/contact-merge";
import { useDuplicates } from "../api/contact-merge";
import { MergeDialog } from "./merge-dialog";

/** The duplicates view (GET /contacts/duplicates, admins): each group with its reason, "Mesclar" on each contact. */
export function DuplicatesDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation("contactMerge");
  const query = useDuplicates(true);
  const [merging, setMerging] = useState<{ from: DuplicateContact; choices: DuplicateContact[] } | null>(null);
  const groups = query.data?.groups ?? [];
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{t("duplicatesTitle")}</DialogTitle>
      <DialogContent>
        {query.isLoading && <CircularProgress />}
        {query.data?.truncated && <Alert severity="info">{t("truncated")}</Alert>}
        {query.data && !groups.length && <Alert severity="success">{t("noDuplicates")}</Alert>}
        <Stack spacing={2} sx={{ pt: 1 }}>
          {groups.map((g, i) => (
            <Paper key={`${g.reason}-${i}`} variant="outlined" sx={{ p: 1 }} data-testid="duplicate-group">
              <Chip size="small" label={t(`reasons.${g.reason}`)} />
              <List dense>
                {g.contacts.map((c) => (
                  <ListItem
                    key={c.id}
                    secondaryAction={
                      <Button size="small" onClick={() => setMerging({ from: c, choices: g.contacts.filter((o) => o.id !== c.id) })}>
                        {t("merge")}
                      </Button>
                    }
                  >
                    <ListItemText primary={c.name} secondary={[c.number, c.email].filter(Boolean).join(" · ")} />
                  </ListItem>
                ))}
              </List>
            </Paper>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("common:close")}</Button>
      </DialogActions>
      {merging && <MergeDialog from={merging.from} choices={merging.choices} onClose={() => setMerging(null)} onMerged={() => void query.refetch()} />}
    </Dialog>
  );
}
