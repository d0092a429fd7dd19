import AttachFileIcon from "@mui/icons-material/AttachFile";
import DeleteIcon from "@mui/icons-material/Delete";
import { Button, IconButton, Tooltip, Typography } from "@mui/material";
import { useRef } from "react";

/**
 * A dialog's attachment: a button that picks one file, then the file's name with a remove button (the caller
 * confirms the removal). Test ids: `<testId>-file` (the input), `<testId>-attachment` (the name).
 */
export function AttachmentPicker(props: {
  testId: string;
  /** the file shown: the one picked, or the one stored */
  name: string | null;
  onPick: (file: File | null) => void;
  onRemove: () => void;
  attachLabel: string;
  removeLabel: string;
  accept?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        hidden
        accept={props.accept}
        data-testid={`${props.testId}-file`}
        onChange={(e) => {
          props.onPick(e.target.files?.[0] ?? null);
          e.target.value = "";
        }}
      />
      <Button startIcon={<AttachFileIcon />} onClick={() => input.current?.click()}>
        {props.attachLabel}
      </Button>
      {props.name && (
        <>
          <Typography variant="body2" data-testid={`${props.testId}-attachment`} sx={{ overflow: "hidden", textOverflow: "ellipsis" }}>
            {props.name}
          </Typography>
          <Tooltip title={props.removeLabel}>
            <IconButton size="small" aria-label={props.removeLabel} onClick={props.onRemove}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </>
      )}
    </>
  );
}
