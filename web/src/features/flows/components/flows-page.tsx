import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import { Box, Button, CircularProgress, IconButton, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate, useParams } from "react-router";
import type { FlowListItem } from "@atende/shared/contracts/http/flows";
import { ConfirmDeleteDialog } from "../../../components/ui/confirm-delete-dialog";
import { useDeleteFlow, useFlow, useFlows } from "../api/flows";
import { FlowEditor } from "./flow-editor";

/** /flows (issue 30): the company's flows; /flows/new and /flows/:flowId open the editor. Admins only. */
export function FlowsPage() {
  const { flowId } = useParams();
  if (flowId === "new") return <FlowEditor key="new" flow={null} />;
  if (flowId) return <EditFlow id={Number(flowId)} />;
  return <FlowList />;
}

/** A spinner of its own: importing the shared page loader splits it out of the first screen's chunk (ADR 0086). */
const Loading = () => (
  <Box sx={{ display: "flex", justifyContent: "center", p: 4 }}>
    <CircularProgress />
  </Box>
);

function EditFlow({ id }: { id: number }) {
  const { t } = useTranslation("flows");
  const flow = useFlow(id);
  if (flow.isPending) return <Loading />;
  if (!flow.data) return <Typography color="error">{t("notFound")}</Typography>;
  // keyed by id only: a save's answer does not reset the editor (its document stays the source of truth)
  return <FlowEditor key={id} flow={flow.data} />;
}

function FlowList() {
  const { t, i18n } = useTranslation("flows");
  const navigate = useNavigate();
  const flows = useFlows();
  const remove = useDeleteFlow();
  const [deleting, setDeleting] = useState<FlowListItem | null>(null);
  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" sx={{ justifyContent: "space-between", alignItems: "center", mb: 1 }}>
        <Typography variant="h6">{t("title")}</Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => navigate("/flows/new")} data-testid="flow-add">
          {t("add")}
        </Button>
      </Stack>
      {flows.isPending ? (
        <Loading />
      ) : !flows.data?.flows.length ? (
        <Typography color="text.secondary">{t("empty")}</Typography>
      ) : (
        <Box sx={{ overflowX: "auto" }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t("name")}</TableCell>
                <TableCell>{t("nodes")}</TableCell>
                <TableCell>{t("versions.title")}</TableCell>
                <TableCell>{t("updatedAt")}</TableCell>
                <TableCell align="right" />
              </TableRow>
            </TableHead>
            <TableBody>
              {flows.data.flows.map((f) => (
                <TableRow key={f.id} data-testid="flow-row">
                  <TableCell>
                    <RouterLink to={`/flows/${f.id}`}>{f.name}</RouterLink>
                  </TableCell>
                  <TableCell>{f.nodeCount}</TableCell>
                  <TableCell>{f.publishedVersion ? t("versions.version", { version: f.publishedVersion }) : t("versions.unpublished")}</TableCell>
                  <TableCell>{new Date(f.updatedAt).toLocaleString(i18n.language)}</TableCell>
                  <TableCell align="right">
                    <IconButton aria-label={t("edit")} onClick={() => navigate(`/flows/${f.id}`)}>
                      <EditIcon />
                    </IconButton>
                    <IconButton aria-label={t("delete")} onClick={() => setDeleting(f)}>
                      <DeleteIcon />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <ConfirmDeleteDialog target={deleting} title={t("deleteConfirm", { name: deleting?.name ?? "" })} deletedText={t("deleted")} remove={remove} onClose={() => setDeleting(null)}>
        {t("deleteText")}
      </ConfirmDeleteDialog>
    </Paper>
  );
}
