import { Aspects, type Stack } from "aws-cdk-lib";
import { AwsSolutionsChecks, NagSuppressions } from "cdk-nag";
import { stageOf } from "../constructs/stage";

/** Rule id -> why the finding is accepted for this product. Applied stack-wide; each reason is the record. */
export const NAG_SUPPRESSIONS: { id: string; reason: string }[] = [
  {
    id: "AwsSolutions-IAM4",
    reason: "AWSLambdaBasicExecutionRole (CloudWatch Logs only) on the Lambdas and CDK's own custom-resource Lambdas: the AWS-maintained minimum.",
  },
  {
    id: "AwsSolutions-IAM5",
    reason:
      "Wildcards come from CDK grants scoped to one resource: the table's indexes (<table>/index/*), the media bucket's objects (<bucket>/*, s3:GetObject* etc.), " +
      "this WebSocket API's connections (execute-api:.../live/POST/@connections/*), SES identities restricted by the ses:FromAddress condition to MAIL_FROM, " +
      "X-Ray PutTraceSegments and CloudWatch PutMetricData (limited to the stage's namespace by condition), which have no resource-level permissions.",
  },
  {
    id: "AwsSolutions-L1",
    reason: "Lambdas are pinned to Node 22 on purpose: the bundles target node22 and the session host image runs the same major; runtime upgrades are a reviewed change.",
  },
  {
    id: "AwsSolutions-APIG4",
    reason: "Authorization is done by the application: JWT access tokens checked by the Hono app on every /api route (ADR 0003), the token checked on WebSocket $connect (ADR 0004); public routes (login, signup, health, webhooks) need none.",
  },
  {
    id: "AwsSolutions-APIG1",
    reason: "Every request is logged by the Lambda behind it with the API Gateway request id (Powertools Logger) and the 5xx rate and latency come from API Gateway metrics; stage access logs would duplicate them at extra cost.",
  },
  {
    id: "AwsSolutions-SMG4",
    reason: "The generated keys are rotated by the operator (docs/operations.md, Rotating secrets): rotating JWT keys ends every session, so it is not automatic.",
  },
  {
    id: "AwsSolutions-S1",
    reason: "The media and web buckets are private and reached only through the API (media) or CloudFront with origin access control (web); CloudTrail covers management events. Server access logs would need a third bucket for little value.",
  },
  { id: "AwsSolutions-CFR1", reason: "No geo restriction: Brazilian companies' agents and customers travel; access is controlled by login." },
  { id: "AwsSolutions-CFR2", reason: "No WAF web ACL yet (cost per stage); login and signup are rate-limited by the application. Planned with the custom domain." },
  { id: "AwsSolutions-CFR3", reason: "CloudFront standard logs need a log bucket with ACLs; the API's requests are logged by its Lambda and the static files carry no data." },
  {
    id: "AwsSolutions-CFR4",
    reason: "The distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the minimum protocol; with a custom domain (docs/operations.md, First deploy) the policy is TLSv1.2_2021.",
  },
  { id: "AwsSolutions-VPC7", reason: "The session host's VPC has public subnets only, no inbound rule and one task; flow logs would record only its outbound calls to WhatsApp and AWS." },
  { id: "AwsSolutions-ECS2", reason: "The container's environment holds names only (table, queue URLs, bucket, host id); no secret is passed to the session host." },
  { id: "AwsSolutions-DDB3", reason: "Staging only: point-in-time recovery is off there to save cost (its data is disposable); prod has it on." },
];

/** AwsSolutions pack on the stack, with the accepted findings above. */
export const applyNagChecks = (stack: Stack) => {
  const staging = stageOf(stack).name === "staging";
  const suppressions = NAG_SUPPRESSIONS.filter((s) => staging || s.id !== "AwsSolutions-DDB3");
  NagSuppressions.addStackSuppressions(stack, suppressions, true);
  Aspects.of(stack).add(new AwsSolutionsChecks({ verbose: true }));
};
