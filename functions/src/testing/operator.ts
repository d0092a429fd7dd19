import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { companyPk, pad } from "../platform/db/keys";
import type { Tenant } from "./factories";
import type { TestApp } from "./test-app";

/** Makes the tenant's admin the platform operator (super flag), as the seed does for the real one. */
export const makeOperator = async (t: TestApp, tenant: Tenant) => {
  const { db } = t.container;
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: { pk: companyPk(tenant.company.id), sk: `USER#${pad(tenant.admin.id)}` },
      UpdateExpression: "SET #s = :t",
      ExpressionAttributeNames: { "#s": "super" },
      ExpressionAttributeValues: { ":t": true },
    }),
  );
  return tenant.adminToken;
};
