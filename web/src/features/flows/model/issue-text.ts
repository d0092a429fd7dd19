import type { TFunction } from "i18next";
import type { FlowIssue } from "@atende/shared/domain/flows/flow-validate";

/** An issue of validateFlow in the user's language (flows:issue.<CODE>, with the handle when there is one). */
export const issueText = (t: TFunction, issue: FlowIssue): string => t(`flows:issue.${issue.code}`, { handle: issue.handle ?? "" });
