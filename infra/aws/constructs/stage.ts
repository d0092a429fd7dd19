import { RemovalPolicy } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IConstruct } from "constructs";

export const STAGE_NAMES = ["staging", "prod"] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** What differs between stages. Queue names come from the shared contract, so each stage gets its own account (or region). */
export interface StageSettings {
  readonly name: StageName;
  /** the table and the log groups: prod keeps them when the stack (or the resource) is deleted */
  readonly removalPolicy: RemovalPolicy;
  readonly pointInTimeRecovery: boolean;
  readonly logRetention: RetentionDays;
  /** session host tasks: autoscaling bounds (prod keeps two, so a crash or a deploy never leaves the fleet empty) */
  readonly sessionHostTasks: { readonly min: number; readonly max: number };
}

export const STAGES: Record<StageName, StageSettings> = {
  staging: { name: "staging", removalPolicy: RemovalPolicy.DESTROY, pointInTimeRecovery: false, logRetention: RetentionDays.TWO_WEEKS, sessionHostTasks: { min: 1, max: 3 } },
  prod: { name: "prod", removalPolicy: RemovalPolicy.RETAIN, pointInTimeRecovery: true, logRetention: RetentionDays.ONE_YEAR, sessionHostTasks: { min: 2, max: 20 } },
};

export const parseStage = (value: string | undefined): StageName => {
  const name = value ?? "prod";
  if (!(STAGE_NAMES as readonly string[]).includes(name)) throw new Error(`stage must be one of ${STAGE_NAMES.join(", ")} (got "${name}")`);
  return name as StageName;
};

const CONTEXT_KEY = "atende:stage";

/** Set by the stack before it adds its constructs; they read it with stageOf(). */
export const setStage = (scope: IConstruct, stage: StageName) => scope.node.setContext(CONTEXT_KEY, stage);

/** The stage settings of the stack this construct belongs to (prod when none was set). */
export const stageOf = (scope: IConstruct): StageSettings => STAGES[parseStage(scope.node.tryGetContext(CONTEXT_KEY) as string | undefined)];
