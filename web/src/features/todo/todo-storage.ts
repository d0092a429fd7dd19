/** The to-do list lives only in this browser, under localStorage `tasks` (spec 1 section 2). */
export type Task = { text: string; createdAt: string; updatedAt: string };

export const TASKS_KEY = "tasks";

export const loadTasks = (): Task[] => {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(TASKS_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((t): t is Task => typeof t?.text === "string") : [];
  } catch {
    return [];
  }
};

export const saveTasks = (tasks: Task[]) => localStorage.setItem(TASKS_KEY, JSON.stringify(tasks));

/** Adds a task, or with `editIndex` replaces that task's text. Blank text changes nothing. */
export const upsertTask = (tasks: Task[], text: string, editIndex: number | null, now = new Date()): Task[] => {
  const clean = text.trim();
  if (!clean) return tasks;
  const stamp = now.toISOString();
  if (editIndex !== null && tasks[editIndex]) return tasks.map((task, i) => (i === editIndex ? { ...task, text: clean, updatedAt: stamp } : task));
  return [...tasks, { text: clean, createdAt: stamp, updatedAt: stamp }];
};

export const removeTask = (tasks: Task[], index: number): Task[] => tasks.filter((_, i) => i !== index);
