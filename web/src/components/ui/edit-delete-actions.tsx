import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import { IconButton, Tooltip } from "@mui/material";
import { useTranslation } from "react-i18next";

/** The edit and delete icon buttons of a list row (each shown only when its handler is given). */
export function EditDeleteActions({ onEdit, onDelete }: { onEdit?: () => void; onDelete?: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      {onEdit && (
        <Tooltip title={t("common:edit")}>
          <IconButton size="small" aria-label={t("common:edit")} onClick={onEdit}>
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {onDelete && (
        <Tooltip title={t("common:delete")}>
          <IconButton size="small" aria-label={t("common:delete")} onClick={onDelete}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );
}
