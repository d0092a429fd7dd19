import { Duration } from "aws-cdk-lib";
import { Rule, Schedule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import type { Queue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { AtendeFunction } from "./atende-function";
import { grantWorkerAccess, type FunctionPlatform } from "./platform-access";
import { handlerEntry } from "./repo-paths";

export interface WorkersProps {
  readonly platform: FunctionPlatform;
  /**
   * Entry of the consumer of the standard `jobs` queue (functions/src/handlers/jobs.ts). Left out, the
   * queue exists (producers can already send) but nothing consumes it.
   */
  readonly jobsHandlerEntry?: string;
}

/** Timed and queued work of the functions deployable: the minute tick and the queue consumers. */
export class Workers extends Construct {
  readonly tick: AtendeFunction;
  readonly inbound: AtendeFunction;
  readonly jobs?: AtendeFunction;

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    const { platform } = props;

    this.tick = new AtendeFunction(this, "TickFunction", {
      entry: handlerEntry("tick"),
      description: "Atende minute tick (due jobs of functions/src/jobs/tick.ts)",
      environment: platform.environment,
      timeout: Duration.seconds(60),
    });
    grantWorkerAccess(this.tick, platform);
    new Rule(this, "MinuteTick", {
      description: "Atende: runs the due jobs every minute",
      schedule: Schedule.rate(Duration.minutes(1)),
      // The next tick comes a minute later and picks up whatever is still due: no retries that could overlap it.
      targets: [new LambdaFunction(this.tick, { retryAttempts: 0 })],
    });

    this.inbound = this.queueConsumer("InboundFunction", handlerEntry("inbound"), platform.queues.inbound, "Atende inbound.fifo consumer (WhatsApp events)", platform);
    if (props.jobsHandlerEntry) {
      // bot turns run here: a turn may make two bot calls (BOT_TIMEOUT_MS each, one retry) and a summary; the
      // queue's 6-minute visibility stays at six times this timeout (AWS's guidance for SQS event sources)
      this.jobs = this.queueConsumer("JobsFunction", props.jobsHandlerEntry, platform.queues.jobs, "Atende jobs queue consumer (delayed work, bot turns)", platform, Duration.seconds(60));
    }
  }

  /** A Lambda fed by a queue in batches of 10 that reports the failed records only (the rest are deleted). */
  private queueConsumer(id: string, entry: string, queue: Queue, description: string, platform: FunctionPlatform, timeout = Duration.seconds(30)) {
    const fn = new AtendeFunction(this, id, { entry, description, environment: platform.environment, timeout });
    grantWorkerAccess(fn, platform);
    fn.addEventSource(new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true }));
    return fn;
  }
}
