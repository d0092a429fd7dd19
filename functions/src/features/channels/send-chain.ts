import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { TTL_ATTRIBUTE } from "@atende/shared/table/table-definition";
import type { Db } from "../../platform/db/client";
import { companyPk } from "../../platform/db/keys";
import type { ChannelCommand } from "../../platform/channels/channel.port";

type Send = Extract<ChannelCommand, { type: "send" }>;

/** A chain item outlives a lost predecessor (its job dead-lettered: the redrive settles it) by this long. */
const TTL_SECONDS = 7 * 24 * 3600;

const isConditionFailure = (e: unknown) => (e as Error).name === "ConditionalCheckFailedException";

/**
 * A bot turn's messages in order on the channels whose sends run as jobs (Cloud API, Messenger/Instagram;
 * docs/adr/0106). The jobs queue is a standard queue and runs a batch's jobs side by side, so two sends enqueued one
 * after the other may reach the provider in either order. A send that must come after another (`after`: that
 * message's id) is parked on one item named after its predecessor until the predecessor settled (sent, or failed for
 * good); the predecessor (`followed`) settles that item when its job ends. Both writes are conditional on the one
 * item, so the parked send is enqueued exactly once, by whichever of the two writes comes second, and never before
 * its predecessor settled. Sends without `after` (every attendant's, every single-message turn's) touch nothing.
 */
export const createSendChain = (db: Db, deps: { enqueue(command: ChannelCommand): Promise<void>; clock: () => Date }) => {
  const T = db.tableName;
  const key = (companyId: number, messageId: string) => ({ pk: `${companyPk(companyId)}#CHAIN#${messageId}`, sk: "CHAIN" });
  const ttl = () => Math.floor(deps.clock().getTime() / 1000) + TTL_SECONDS;
  const chain = {
    /** The channel's dispatch: enqueues a command now, or parks a send until the message it follows settled. */
    async dispatch(command: ChannelCommand): Promise<void> {
      if (command.type !== "send" || !command.after) return deps.enqueue(command);
      try {
        await db.doc.send(
          new PutCommand({
            TableName: T,
            Item: { ...key(command.companyId, command.after), entity: "sendChain", parked: command, parkedAt: deps.clock().toISOString(), [TTL_ATTRIBUTE]: ttl() },
            ConditionExpression: "attribute_not_exists(settled)",
          }),
        );
      } catch (e) {
        if (!isConditionFailure(e)) throw e;
        // the predecessor is out already
        await deps.enqueue(command);
      }
    },

    /**
     * A send's job ended for good (sent, failed, or found already claimed by an earlier delivery of the same job): the
     * send parked after it, if any, goes now. Idempotent: a second call finds nothing parked.
     */
    async settled(command: Send): Promise<void> {
      if (!command.followed) return;
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: T,
          Key: key(command.companyId, command.messageId),
          UpdateExpression: "SET settled = :t, entity = :e, #ttl = :ttl REMOVE parked",
          ExpressionAttributeNames: { "#ttl": TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ":t": true, ":e": "sendChain", ":ttl": ttl() },
          ReturnValues: "ALL_OLD",
        }),
      );
      const parked = out.Attributes?.parked as Send | undefined;
      if (!parked) return;
      try {
        await deps.enqueue(parked);
      } catch (e) {
        // not queued: parked again, for the predecessor job's retry (which settles again) to hand on
        await db.doc.send(new UpdateCommand({ TableName: T, Key: key(command.companyId, command.messageId), UpdateExpression: "SET parked = :p", ExpressionAttributeValues: { ":p": parked } }));
        throw e;
      }
    },

    /** A channel's job ended: a send that is over (not `later`: back in the queue to wait) lets its follower go. */
    async jobEnded(command: ChannelCommand, outcome?: "settled" | "duplicate" | "later" | void): Promise<void> {
      if (command.type === "send" && outcome !== "later") await chain.settled(command);
    },
  };
  return chain;
};
export type SendChain = ReturnType<typeof createSendChain>;
