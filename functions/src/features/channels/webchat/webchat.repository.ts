import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import type { Db } from "../../../platform/db/client";
import { companyPk } from "../../../platform/db/keys";

/** What a company sets on its website chat connection (docs/adr/0092). */
export type WebchatSettings = {
  companyId: number;
  whatsappId: number;
  publicKey: string;
  /** exact origins (scheme://host[:port]) allowed to call the visitor API and open a visitor socket */
  allowedOrigins: string[];
  greeting: string;
  color: string;
  /** what the widget asks before the first message */
  ask: { name: boolean; email: boolean; phone: boolean };
};

/** One visitor's session: the token is stored only as its SHA-256 (the visitor keeps the token itself). */
export type WebchatSession = {
  companyId: number;
  whatsappId: number;
  publicKey: string;
  visitorId: string;
  name?: string;
  email?: string;
  phone?: string;
  createdAt: string;
};

/** Sessions last 30 days from their creation (the widget starts a new one after that). */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

/** A visitor's open socket (docs/adr/0096): API Gateway ends sockets within 2 h; the TTL cleans up any that never saw $disconnect. */
export type VisitorSocket = { connectionId: string; companyId: number; whatsappId: number; visitorId: string };
const SOCKET_TTL_SECONDS = 3 * 3600;

/** Not a company-partitioned item: the public key is the index from a public request to its company. */
export const createWebchatRepository = (db: Db) => {
  const T = db.tableName;
  const keyOf = (publicKey: string) => ({ pk: `WEBCHAT#${publicKey}`, sk: "WEBCHAT" });
  const connKey = (companyId: number, whatsappId: number) => ({ pk: companyPk(companyId), sk: `WEBCHATCONN#${whatsappId}` });
  const sessionKey = (tokenHash: string) => ({ pk: `WCSESSION#${tokenHash}`, sk: "WCSESSION" });
  // a visitor's sockets live in the company's partition, one list per visitor; $disconnect has only the id: a pointer
  const socketsPk = (companyId: number, visitorId: string) => `${companyPk(companyId)}#WCSOCK#${visitorId}`;
  const socketPointer = (connectionId: string) => ({ pk: `WCSOCK#${connectionId}`, sk: "WCSOCK" });
  return {
    async put(s: WebchatSettings): Promise<void> {
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...keyOf(s.publicKey), ...s } }));
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...connKey(s.companyId, s.whatsappId), publicKey: s.publicKey } }));
    },
    async byKey(publicKey: string): Promise<WebchatSettings | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: keyOf(publicKey) }));
      if (!out.Item) return null;
      const { pk: _pk, sk: _sk, ...rest } = out.Item;
      return rest as WebchatSettings;
    },
    async byConnection(companyId: number, whatsappId: number): Promise<WebchatSettings | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: connKey(companyId, whatsappId) }));
      return out.Item ? this.byKey(String(out.Item.publicKey)) : null;
    },
    /** The connection is gone: its key stops answering (sessions of it expire by TTL and match no settings). */
    async remove(companyId: number, whatsappId: number): Promise<void> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: connKey(companyId, whatsappId) }));
      if (out.Item) await db.doc.send(new DeleteCommand({ TableName: T, Key: keyOf(String(out.Item.publicKey)) }));
      await db.doc.send(new DeleteCommand({ TableName: T, Key: connKey(companyId, whatsappId) }));
    },
    async putSession(tokenHash: string, s: WebchatSession, now: Date): Promise<void> {
      const ttl = Math.ceil(now.getTime() / 1000) + SESSION_TTL_SECONDS;
      await db.doc.send(new PutCommand({ TableName: T, Item: { ...sessionKey(tokenHash), ...s, ttl } }));
      // what the visitor typed, by visitor: the inbox offers the attendant a known contact with that phone or e-mail
      // (docs/adr/0104; read by the inbox's contact merge by this documented key)
      if (s.email || s.phone)
        await db.doc.send(new PutCommand({ TableName: T, Item: { pk: companyPk(s.companyId), sk: `WCVISITOR#${s.visitorId}`, entity: "webchatVisitor", email: s.email, phone: s.phone, ttl } }));
    },
    async session(tokenHash: string, now: Date): Promise<WebchatSession | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: sessionKey(tokenHash) }));
      if (!out.Item || Number(out.Item.ttl) * 1000 < now.getTime()) return null;
      const { pk: _pk, sk: _sk, ttl: _ttl, ...rest } = out.Item;
      return rest as WebchatSession;
    },
    async putSocket(socket: VisitorSocket, now: Date): Promise<void> {
      const ttl = Math.ceil(now.getTime() / 1000) + SOCKET_TTL_SECONDS;
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: T, Item: { pk: socketsPk(socket.companyId, socket.visitorId), sk: socket.connectionId, ...socket, ttl } } },
            { Put: { TableName: T, Item: { ...socketPointer(socket.connectionId), ...socket, ttl } } },
          ],
        }),
      );
    },
    async socket(connectionId: string): Promise<VisitorSocket | null> {
      const out = await db.doc.send(new GetCommand({ TableName: T, Key: socketPointer(connectionId) }));
      if (!out.Item) return null;
      return { connectionId, companyId: Number(out.Item.companyId), whatsappId: Number(out.Item.whatsappId), visitorId: String(out.Item.visitorId) };
    },
    /** The open sockets of one visitor of one company (never another's: the company and visitor are the key). */
    async socketsOf(companyId: number, visitorId: string): Promise<VisitorSocket[]> {
      const out = await db.doc.send(new QueryCommand({ TableName: T, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": socketsPk(companyId, visitorId) } }));
      return (out.Items ?? []).map((i) => ({ connectionId: String(i.sk), companyId, whatsappId: Number(i.whatsappId), visitorId }));
    },
    async removeSocket(socket: VisitorSocket): Promise<void> {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: T, Key: { pk: socketsPk(socket.companyId, socket.visitorId), sk: socket.connectionId } } },
            { Delete: { TableName: T, Key: socketPointer(socket.connectionId) } },
          ],
        }),
      );
    },
  };
};
export type WebchatRepository = ReturnType<typeof createWebchatRepository>;
