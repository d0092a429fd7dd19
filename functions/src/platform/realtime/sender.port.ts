/**
 * Delivers one frame to one socket: a string is sent as is (Socket.IO packets), anything else as JSON.
 * "gone" means the socket no longer exists (API Gateway's GoneException).
 */
export type SocketSender = {
  post(connectionId: string, frame: unknown): Promise<"ok" | "gone">;
  disconnect(connectionId: string): Promise<void>;
};
