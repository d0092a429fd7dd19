/** Delivers one frame to one socket. "gone" means the socket no longer exists (API Gateway's GoneException). */
export type SocketSender = {
  post(connectionId: string, frame: unknown): Promise<"ok" | "gone">;
  disconnect(connectionId: string): Promise<void>;
};
