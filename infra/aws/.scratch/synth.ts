import { App } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { AtendeStack } from "../stacks/atende.stack.ts";
const app = new App({ outdir: "/tmp/infra-aws-t/out", context: { "aws:cdk:bundling-stacks": [] } });
const s = new AtendeStack(app, "T", { mailFrom: "x@y.z", appVersion: "1" });
const t = Template.fromStack(s);
console.log(Object.keys(t.toJSON().Resources).length);
const asm = app.synth(); console.log(asm.directory);
