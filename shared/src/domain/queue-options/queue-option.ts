/** One node of a queue's option tree (spec 2, "Filas & Chatbot"), as stored and read by the inbox's automation. */
export type QueueOption = {
  id: number;
  companyId: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  /** the number the customer types to choose this node */
  option: string;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
};
