import { Button, Grid, Stack, TextField } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { HelpResponse } from "@atende/shared/contracts/http/helps";
import { DataTable } from "../../../components/ui/data-table";
import { toast } from "../../../lib/toast";
import { type HelpInput, useDeleteHelp, useHelps, useSaveHelp } from "../api/helps";

const EMPTY: HelpInput = { title: "", description: "", video: "" };

/** 'Ajuda' (operator): title, video code, description; the table below; a row click loads it. */
export function HelpsTab() {
  const { t } = useTranslation("helps");
  const list = useHelps();
  const save = useSaveHelp();
  const remove = useDeleteHelp();
  const [selected, setSelected] = useState<HelpResponse | null>(null);
  const [values, setValues] = useState<HelpInput>(EMPTY);
  useEffect(() => setValues(selected ? { title: selected.title, description: selected.description, video: selected.video } : EMPTY), [selected]);

  const submit = () => {
    if (!values.title.trim()) return toast.error(t("saveFailure"));
    save.mutate(
      { id: selected?.id, input: values },
      {
        onSuccess: () => {
          toast.success(t("success"));
          setSelected(null);
          setValues(EMPTY);
        },
        onError: () => toast.error(t("saveFailure")),
      },
    );
  };

  return (
    <Stack spacing={2} data-testid="help-form">
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField fullWidth size="small" label={t("fields.title")} value={values.title} onChange={(e) => setValues({ ...values, title: e.target.value })} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField fullWidth size="small" label={t("fields.video")} value={values.video} onChange={(e) => setValues({ ...values, video: e.target.value })} />
        </Grid>
        <Grid size={12}>
          <TextField fullWidth size="small" multiline minRows={2} label={t("fields.description")} value={values.description} onChange={(e) => setValues({ ...values, description: e.target.value })} />
        </Grid>
      </Grid>
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" onClick={() => setSelected(null)}>
          {t("buttons.clear")}
        </Button>
        {selected && (
          <Button
            variant="outlined"
            color="error"
            onClick={() =>
              remove.mutate(selected.id, {
                onSuccess: () => {
                  toast.success(t("success"));
                  setSelected(null);
                },
                onError: () => toast.error(t("deleteFailure")),
              })
            }
          >
            {t("buttons.delete")}
          </Button>
        )}
        <Button variant="contained" onClick={submit} loading={save.isPending}>
          {t("buttons.save")}
        </Button>
      </Stack>
      <DataTable
        layout="flow"
        panelSx={{}}
        columns={[
          { header: t("fields.title"), cell: (h) => h.title },
          { header: t("fields.description"), cell: (h) => h.description },
          { header: t("fields.video"), cell: (h) => h.video },
        ]}
        rows={list.data ?? []}
        rowTestId="help-row"
        rowProps={(h) => ({ sx: { cursor: "pointer" }, onClick: () => setSelected(h) })}
      />
    </Stack>
  );
}
