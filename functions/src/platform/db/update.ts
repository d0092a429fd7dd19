/**
 * Builds a SET update expression from a plain object, with every attribute name aliased
 * (DynamoDB reserves hundreds of words: name, status, online, value ...). Undefined values are skipped.
 */
export const setExpression = (fields: Record<string, unknown>) => {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  return {
    UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(", ")}`,
    ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
    ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
  };
};
