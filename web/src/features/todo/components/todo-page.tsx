import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import { Box, Button, IconButton, List, ListItem, ListItemText, Paper, Stack, TextField, Tooltip, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDate, formatTime } from "@atende/shared/domain/format/dates";
import { type Task, loadTasks, removeTask, saveTasks, upsertTask } from "../todo-storage";

/** /todolist: a personal task list kept in this browser. */
export function TodoPage() {
  const { t } = useTranslation("todo");
  const [tasks, setTasks] = useState<Task[]>(loadTasks);
  const [text, setText] = useState("");
  const [editIndex, setEditIndex] = useState<number | null>(null);

  const update = (next: Task[]) => {
    setTasks(next);
    saveTasks(next);
  };

  const submit = () => {
    if (!text.trim()) return;
    update(upsertTask(tasks, text, editIndex));
    setText("");
    setEditIndex(null);
  };

  const startEdit = (index: number) => {
    setEditIndex(index);
    setText(tasks[index]?.text ?? "");
  };

  const remove = (index: number) => {
    update(removeTask(tasks, index));
    if (editIndex === index) {
      setEditIndex(null);
      setText("");
    }
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 3 }, maxWidth: 900, mx: "auto" }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t("title")}
      </Typography>
      <Stack
        component="form"
        direction={{ xs: "column", sm: "row" }}
        spacing={1}
        sx={{ mb: 2 }}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField label={t("newTask")} value={text} onChange={(e) => setText(e.target.value)} fullWidth size="small" />
        <Button type="submit" variant="contained" sx={{ minWidth: 120 }}>
          {editIndex === null ? t("add") : t("save")}
        </Button>
      </Stack>
      <Paper variant="outlined">
        {tasks.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t("empty")}
          </Typography>
        ) : (
          <List data-testid="todo-list">
            {tasks.map((task, index) => (
              <ListItem
                key={`${task.createdAt}-${index}`}
                divider={index < tasks.length - 1}
                secondaryAction={
                  <>
                    <Tooltip title={t("edit")}>
                      <IconButton aria-label={t("editTask", { text: task.text })} onClick={() => startEdit(index)}>
                        <EditIcon />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t("delete")}>
                      <IconButton edge="end" aria-label={t("deleteTask", { text: task.text })} onClick={() => remove(index)}>
                        <DeleteIcon />
                      </IconButton>
                    </Tooltip>
                  </>
                }
              >
                <ListItemText
                  primary={task.text}
                  secondary={t("updated", { date: formatDate(task.updatedAt), time: formatTime(task.updatedAt) })}
                  sx={{ pr: 10, wordBreak: "break-word" }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Box>
  );
}
