import type { ReactNode } from "react";
import { toast } from "../../lib/toast";
import { ConfirmDialog } from "./confirm-dialog";

export type DeleteMutation = { isPending: boolean; mutate: (id: number, opts: { onSuccess: () => void; onSettled: () => void }) => void };

/** "Delete this record?": on confirm runs the delete mutation, toasts `deletedText` on success, closes either way. */
export function ConfirmDeleteDialog<T extends { id: number }>(props: {
  target: T | null;
  title: string;
  deletedText: string;
  remove: DeleteMutation;
  onClose: () => void;
  children: ReactNode;
}) {
  const { target, remove, onClose } = props;
  return (
    <ConfirmDialog
      open={!!target}
      title={props.title}
      busy={remove.isPending}
      onClose={onClose}
      onConfirm={() => target && remove.mutate(target.id, { onSuccess: () => toast.success(props.deletedText), onSettled: onClose })}
    >
      {props.children}
    </ConfirmDialog>
  );
}
