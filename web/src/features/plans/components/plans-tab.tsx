import { Button, FormControlLabel, Grid, InputAdornment, Stack, Switch, TextField } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PLAN_FLAGS, type Plan, type PlanInput, planSchema } from "@atende/shared/domain/plans/plan";
import { DataTable } from "../../../components/ui/data-table";
import { toast } from "../../../lib/toast";
import { formatMoney } from "../../../lib/money";
import { useDeletePlan, usePlansAdmin, useSavePlan } from "../api/plans";

const FLAGS = [...PLAN_FLAGS, "useInternal"] as const;
const EMPTY: PlanInput = { name: "", users: 0, connections: 0, queues: 0, value: 0, ...Object.fromEntries(FLAGS.map((f) => [f, true])) } as PlanInput;

/** 'Planos': name, counts, value in R$ and every flag; the table below; a row click loads it. */
export function PlansTab() {
  const { t } = useTranslation("plans");
  const list = usePlansAdmin();
  const save = useSavePlan();
  const remove = useDeletePlan();
  const [selected, setSelected] = useState<Plan | null>(null);
  const [values, setValues] = useState<PlanInput>(EMPTY);
  useEffect(() => setValues(selected ? { ...EMPTY, ...selected } : EMPTY), [selected]);
  useEffect(() => {
    if (list.isError) toast.error(t("listFailure"));
  }, [list.isError, t]);
  const set = <K extends keyof PlanInput>(key: K, value: PlanInput[K]) => setValues((v) => ({ ...v, [key]: value }));

  const submit = () => {
    const parsed = planSchema.safeParse(values);
    if (!parsed.success) return toast.error(t("saveFailure"));
    save.mutate(
      { id: selected?.id, input: parsed.data },
      {
        onSuccess: () => {
          toast.success(t("success"));
          setSelected(null);
        },
        onError: () => toast.error(t("saveFailure")),
      },
    );
  };

  return (
    <Stack spacing={2} data-testid="plan-form">
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField fullWidth size="small" label={t("fields.name")} value={values.name} onChange={(e) => set("name", e.target.value)} />
        </Grid>
        {(["users", "connections", "queues"] as const).map((k) => (
          <Grid key={k} size={{ xs: 4, md: 2 }}>
            <TextField fullWidth size="small" type="number" label={t(`fields.${k}`)} value={values[k]} onChange={(e) => set(k, Number(e.target.value))} />
          </Grid>
        ))}
        <Grid size={{ xs: 12, md: 2 }}>
          <TextField
            fullWidth
            size="small"
            type="number"
            label={t("fields.value")}
            value={values.value}
            onChange={(e) => set("value", Number(e.target.value))}
            slotProps={{ input: { startAdornment: <InputAdornment position="start">R$</InputAdornment> }, htmlInput: { step: "0.01", min: 0 } }}
          />
        </Grid>
        {FLAGS.map((flag) => (
          <Grid key={flag} size={{ xs: 12, sm: 6, md: 3 }}>
            <FormControlLabel control={<Switch checked={values[flag]} onChange={(e) => set(flag, e.target.checked)} />} label={t(`flags.${flag}`)} />
          </Grid>
        ))}
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
        panelSx={{ overflowX: "auto" }}
        columns={[
          { header: t("fields.name"), cell: (p) => p.name },
          { header: t("fields.users"), cell: (p) => p.users },
          { header: t("fields.connections"), cell: (p) => p.connections },
          { header: t("fields.queues"), cell: (p) => p.queues },
          { header: t("fields.value"), cell: (p) => formatMoney(p.value) },
          { header: t("flags.useCampaigns"), cell: (p) => (p.useCampaigns ? t("enabled") : t("disabled")) },
          { header: t("flags.useSchedules"), cell: (p) => (p.useSchedules ? t("enabled") : t("disabled")) },
        ]}
        rows={list.data ?? []}
        rowTestId="plan-row"
        rowProps={(p) => ({ sx: { cursor: "pointer" }, onClick: () => setSelected(p) })}
      />
    </Stack>
  );
}
