import AddIcon from "@mui/icons-material/Add";
import { Button } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { PromptEventData, PromptResponse } from "@atende/shared/contracts/http/prompts";
import { DataTable } from "../../../components/ui/data-table";
import { useRealtime } from "../../../lib/realtime";
import { applyPromptEvent, useDeletePrompt, usePrompts } from "../api/prompts";
import { PromptDialog } from "./prompt-dialog";
import { CompanyTokens, PromptTokens } from "./prompt-usage";

/** /prompts (plan flag useOpenAi): the company's AI prompts with their queue; add/edit dialog; delete confirmed; live via `prompt`. */
export function PromptsPage() {
  const { t } = useTranslation("prompts");
  const qc = useQueryClient();
  const query = usePrompts();
  const remove = useDeletePrompt();
  const [editing, setEditing] = useState<PromptResponse | "new" | null>(null);
  useRealtime<PromptEventData>("prompt", (data) => applyPromptEvent(qc, data));

  return (
    <>
      <DataTable
        layout="flow"
        title={t("title")}
        toolbar={
          <>
            {query.data?.usage && <CompanyTokens month={query.data.usage.month} total={query.data.usage.totalTokens} />}
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
              {t("add")}
            </Button>
          </>
        }
        query={query}
        columns={[
          { header: t("fields.name"), cell: (p) => p.name },
          { header: t("fields.queue"), cell: (p) => p.queue?.name ?? t("noQueue") },
          { header: t("fields.maxTokens"), align: "center", cell: (p) => p.maxTokens },
          { header: t("usage.column"), align: "right", cell: (p) => <PromptTokens used={p.tokensThisMonth ?? 0} cap={p.monthlyTokenCap ?? 0} /> },
        ]}
        rows={query.data?.prompts ?? []}
        rowTestId="prompt-row"
        empty={t("empty")}
        onEdit={setEditing}
        remove={{ mutation: remove, title: (p) => t("deleteConfirm.title", { name: p.name }), text: t("deleteConfirm.text"), deletedText: t("deleted") }}
      />
      {editing && <PromptDialog key={editing === "new" ? "new" : editing.id} record={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
