import AccountTreeIcon from "@mui/icons-material/AccountTree";
import BarChartIcon from "@mui/icons-material/BarChart";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import ContentPasteIcon from "@mui/icons-material/ContentPaste";
import FileDownloadIcon from "@mui/icons-material/FileDownload";
import FileUploadIcon from "@mui/icons-material/FileUpload";
import RedoIcon from "@mui/icons-material/Redo";
import UndoIcon from "@mui/icons-material/Undo";
import { Button, Chip, IconButton, Stack, TextField, Tooltip } from "@mui/material";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import type { FlowDoc } from "../model/doc";

/** The file's text (FileReader: also where Blob.text is missing). */
export const readText = (blob: Blob): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ""));
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsText(blob);
  });

type Props = {
  doc: FlowDoc;
  readOnly: boolean;
  onRename: (name: string) => void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onLayout: () => void;
  canCopy: boolean;
  onCopy: () => void;
  onPaste: () => void;
  onImport: (text: string) => void;
  onExport: () => void;
  onSave: () => void;
  onPublish: () => void;
  saving: boolean;
  dirty: boolean;
  problems: number;
  warnings: number;
  showStats: boolean;
  onToggleStats: () => void;
  publishedVersion: number | null;
};

/** Name, undo/redo, layout, copy/paste, import/export, counts, save and publish. */
export function FlowToolbar(p: Props) {
  const { t } = useTranslation("flows");
  const file = useRef<HTMLInputElement>(null);
  const icon = (title: string, testId: string, onClick: () => void, node: React.ReactNode, disabled = false) => (
    <Tooltip title={title}>
      <span>
        <IconButton aria-label={title} data-testid={testId} onClick={onClick} disabled={disabled || p.readOnly} size="small">
          {node}
        </IconButton>
      </span>
    </Tooltip>
  );
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center", py: 1, flexWrap: "wrap", rowGap: 1 }} data-testid="flow-toolbar">
      <TextField size="small" label={t("name")} value={p.doc.name} onChange={(e) => p.onRename(e.target.value)} disabled={p.readOnly} slotProps={{ htmlInput: { "data-testid": "flow-name", maxLength: 100 } }} />
      {icon(t("undo"), "flow-undo", p.onUndo, <UndoIcon />, !p.canUndo)}
      {icon(t("redo"), "flow-redo", p.onRedo, <RedoIcon />, !p.canRedo)}
      {icon(t("layout"), "flow-layout", p.onLayout, <AccountTreeIcon />)}
      {icon(t("copy"), "flow-copy", p.onCopy, <ContentCopyIcon />, !p.canCopy)}
      {icon(t("paste"), "flow-paste", p.onPaste, <ContentPasteIcon />)}
      {icon(t("import"), "flow-import", () => file.current?.click(), <FileUploadIcon />)}
      <input
        ref={file}
        type="file"
        accept="application/json,.json"
        hidden
        data-testid="flow-import-file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = "";
          if (f) void readText(f).then(p.onImport);
        }}
      />
      <Tooltip title={t("export")}>
        <IconButton aria-label={t("export")} data-testid="flow-export" onClick={p.onExport} size="small">
          <FileDownloadIcon />
        </IconButton>
      </Tooltip>
      <Tooltip title={t("stats.toggle")}>
        <IconButton aria-label={t("stats.toggle")} data-testid="flow-stats" onClick={p.onToggleStats} size="small" color={p.showStats ? "primary" : "default"}>
          <BarChartIcon />
        </IconButton>
      </Tooltip>
      {p.problems > 0 && <Chip size="small" color="error" label={t("problems", { count: p.problems })} data-testid="flow-problems" />}
      {p.warnings > 0 && <Chip size="small" color="warning" label={t("warnings", { count: p.warnings })} data-testid="flow-warnings" />}
      <Chip size="small" variant="outlined" label={p.publishedVersion ? t("versions.version", { version: p.publishedVersion }) : t("versions.unpublished")} data-testid="flow-published-version" />
      <Stack direction="row" spacing={1} sx={{ ml: "auto !important" }}>
        <Button variant="outlined" onClick={p.onSave} disabled={p.readOnly || p.saving || !p.dirty} data-testid="flow-save">
          {t("save")}
        </Button>
        <Button variant="contained" onClick={p.onPublish} disabled={p.readOnly || p.saving || p.problems > 0} data-testid="flow-publish">
          {t("publish")}
        </Button>
      </Stack>
    </Stack>
  );
}
