import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { IndexName } from "@atende/shared/table/table-definition";
import type { Db } from "./client";

export type IndexPartition = { index: IndexName; pk: string };
export type ItemFilter = {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
};

/** A ProjectionExpression of attribute names and `map.field` paths (each name as an expression attribute name). */
const projectionOf = (attributes: readonly string[] | undefined, extra: (string | undefined)[]) => {
  if (!attributes?.length) return undefined;
  const names: Record<string, string> = {};
  const ids = new Map<string, string>();
  const nameOf = (n: string) => {
    let id = ids.get(n);
    if (!id) ids.set(n, (id = `#a${ids.size}`));
    names[id] = n;
    return id;
  };
  const paths = [...new Set([...attributes, ...extra.filter((x): x is string => !!x)])];
  return { expression: paths.map((path) => path.split(".").map(nameOf).join(".")).join(", "), names };
};

/** Items read per partition per page when a filter drops items (keeps every page a bounded read). */
const READ_BUDGET = 400;

/**
 * One page of items from several index partitions that share one descending sort key (e.g. last activity),
 * merged as one list. Stateless cursor: the sort key of the last item served; every partition resumes with
 * `sk < cursor`. With a filter, a partition stops after READ_BUDGET items; items below the lowest point such a
 * partition reached are held back to the next page so nothing is skipped.
 */
export const mergedIndexPage = async (
  db: Db,
  partitions: IndexPartition[],
  opts: {
    limit: number;
    cursor?: string;
    filter?: ItemFilter;
    /** the item attribute holding the shared sort value (every partition's sort key has the same value) */
    orderField?: string;
    /** oldest/smallest first (names A-Z); default newest first */
    ascending?: boolean;
    /**
     * An item attribute identifying one logical item across partitions (e.g. a ticket id when the same ticket is
     * stored once per partition family, docs/adr/0040); default the item's own key.
     */
    dedupeBy?: string;
    /**
     * With a filter, read each partition's whole budget in one query (one round trip, up to READ_BUDGET items)
     * instead of pages of 100 one after the other (fewer items read when matches are dense, more round trips).
     */
    budgetInOneRead?: boolean;
    /**
     * Only these attributes of each item (top-level names or `map.field` paths); the order and dedupe fields are
     * added. Absent: whole items.
     */
    attributes?: readonly string[];
  },
): Promise<{ items: Record<string, unknown>[]; next?: string }> => {
  const asc = opts.ascending ?? false;
  const projection = projectionOf(opts.attributes, [opts.orderField, opts.dedupeBy]);
  const skOf = (i: IndexName) => `${i}sk`;
  const pkOf = (i: IndexName) => `${i}pk`;
  const perPartition = await Promise.all(
    partitions.map(async (p) => {
      const found: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      let read = 0;
      let horizon: string | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: db.tableName,
            IndexName: p.index,
            KeyConditionExpression: opts.cursor ? `#pk = :pk AND #sk ${asc ? ">" : "<"} :c` : "#pk = :pk",
            ExpressionAttributeNames: { "#pk": pkOf(p.index), ...(opts.cursor ? { "#sk": skOf(p.index) } : {}), ...opts.filter?.names, ...projection?.names },
            ...(projection ? { ProjectionExpression: projection.expression } : {}),
            ExpressionAttributeValues: { ":pk": p.pk, ...(opts.cursor ? { ":c": opts.cursor } : {}), ...opts.filter?.values },
            ...(opts.filter ? { FilterExpression: opts.filter.expression } : {}),
            ScanIndexForward: asc,
            Limit: opts.filter ? (opts.budgetInOneRead ? READ_BUDGET : Math.min(READ_BUDGET, 100)) : opts.limit + 1,
            ExclusiveStartKey: start,
          }),
        );
        found.push(...(out.Items ?? []));
        read += out.ScannedCount ?? 0;
        start = out.LastEvaluatedKey;
        if (start && (found.length > opts.limit || read >= READ_BUDGET)) {
          // stopped early: below this point the partition was not read
          horizon = String(start[skOf(p.index)]);
          break;
        }
      } while (start);
      return { found, horizon: found.length > opts.limit ? undefined : horizon };
    }),
  );
  const orderField = opts.orderField ?? skOf(partitions[0]?.index ?? "gsi1");
  const skField = (item: Record<string, unknown>) => String(item[orderField] ?? "");
  const seen = new Set<string>();
  const merged = perPartition
    .flatMap((p) => p.found)
    .filter((item) => {
      const id = opts.dedupeBy ? String(item[opts.dedupeBy]) : `${item.pk}|${item.sk}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .sort((a, b) => (skField(a) < skField(b) ? 1 : skField(a) > skField(b) ? -1 : 0) * (asc ? -1 : 1));
  const horizons = perPartition.map((p) => p.horizon).filter((h): h is string => h !== undefined);
  // the most restrictive point any budget-stopped partition reached
  const floor = horizons.length ? horizons.reduce((a, b) => ((asc ? a < b : a > b) ? a : b)) : undefined;
  const safe = floor === undefined ? merged : merged.filter((item) => (asc ? skField(item) < floor : skField(item) > floor));
  const page = safe.slice(0, opts.limit);
  if (safe.length > opts.limit) return { items: page, next: skField(page[page.length - 1]!) };
  if (floor !== undefined) return { items: page, next: floor };
  return { items: page };
};
