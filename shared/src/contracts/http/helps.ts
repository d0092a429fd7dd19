export type HelpResponse = { id: number; title: string; description: string; video: string; createdAt: string; updatedAt: string };
