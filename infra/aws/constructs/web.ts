import { Duration, RemovalPolicy } from "aws-cdk-lib";
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  type ResponseSecurityHeadersBehavior,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ViewerProtocolPolicy,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin, S3BucketOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { BucketDeployment, CacheControl, Source } from "aws-cdk-lib/aws-s3-deployment";
import { Construct } from "constructs";
import {
  API_CONTENT_SECURITY_POLICY,
  appContentSecurityPolicy,
  COMMON_SECURITY_HEADERS,
  HSTS_MAX_AGE_SECONDS,
  REFERRER_POLICY,
} from "@atende/shared/constants/security-headers";

export interface WebProps {
  /** `{id}.execute-api.{region}.amazonaws.com` of the HTTP API (origin of /api/*) */
  readonly apiDomainName: string;
  /** wss:// URL the browser opens, published as /config.json */
  readonly webSocketUrl: string;
  /** `{id}.execute-api.{region}.amazonaws.com` of the WebSocket API and its stage: origin of /socket.io/* (ADR 0013) */
  readonly webSocketDomainName: string;
  readonly webSocketStage: string;
  /** the built SPA (web/dist); when absent only /config.json is deployed */
  readonly webDistDir?: string;
  /** sent as `x-origin-verify` on every /api request; the API refuses requests without it */
  readonly originVerifyValue: string;
}

/**
 * Paths without a file extension are client-side routes of the SPA: serve /index.html for them.
 * Done in a viewer-request function rather than with distribution error responses (403/404 -> index.html),
 * because error responses apply to every behaviour and would turn the API's own 403/404 JSON errors
 * (expired token, unknown id) into a 200 HTML page.
 */
export const SPA_FALLBACK_CODE = `
function handler(event) {
  var request = event.request;
  var lastSegment = request.uri.substring(request.uri.lastIndexOf("/") + 1);
  if (lastSegment.indexOf(".") === -1) request.uri = "/index.html";
  return request;
}`;

/**
 * The spec's clients open `wss://<app>/socket.io/?EIO=4&transport=websocket&token=...` (Socket.IO). A WebSocket
 * API answers on its stage path only, so the viewer request is rewritten to `/<stage>`; the query string, which
 * tells the handler it is a Socket.IO client, goes through untouched.
 */
export const socketIoRewriteCode = (stage: string) => `
function handler(event) {
  var request = event.request;
  request.uri = "/${stage}";
  return request;
}`;

/**
 * Hashed build files (Vite puts them under assets/) may be cached for good; index.html, the unhashed
 * session-boot.js it loads first (web/public) and config.json never.
 */
// webchat.js: the website chat's loader that companies paste on their sites (docs/adr/0092); the widget it loads,
// webchat.<hash>.js, is a hashed file like the app's chunks
const ENTRY_FILES = ["index.html", "session-boot.js", "webchat.js"];
const IMMUTABLE = [CacheControl.setPublic(), CacheControl.maxAge(Duration.days(365)), CacheControl.immutable()];
const REVALIDATE = [CacheControl.noCache()];

/**
 * The browser's entry: a private S3 bucket (read by CloudFront through origin access control) behind a
 * CloudFront distribution that also routes /api/* to the HTTP API, so the app and its API share one
 * origin (the refresh cookie is SameSite=Strict, Path=/api/auth), and /socket.io/* to the WebSocket API.
 */
export class Web extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    this.bucket = new Bucket(this, "Bucket", {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Only build output lives here: it is rebuilt by the next deploy.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const spaFallback = new CloudFrontFunction(this, "SpaFallback", {
      code: FunctionCode.fromInline(SPA_FALLBACK_CODE),
      runtime: FunctionRuntime.JS_2_0,
      comment: "Atende: client-side routes -> /index.html",
    });

    // The same browser hardening as the local server (shared/constants/security-headers), plus HSTS.
    const headers = this.responseHeaders(props.webSocketUrl);
    this.distribution = new Distribution(this, "Distribution", {
      comment: "Atende web app and /api",
      defaultRootObject: "index.html",
      httpVersion: HttpVersion.HTTP2_AND_3,
      // The users are in Brazil: only the "all" price class includes South American edge locations.
      priceClass: PriceClass.PRICE_CLASS_ALL,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
        responseHeadersPolicy: headers.app,
      },
      additionalBehaviors: {
        "/api/*": {
          origin: new HttpOrigin(props.apiDomainName, {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
            customHeaders: { "x-origin-verify": props.originVerifyValue },
          }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // Every viewer header (Authorization, cookies, query strings) and CloudFront-Viewer-Address (login
          // throttling, ADR 0003), but not Host: API Gateway must see its own host name.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          compress: true,
          responseHeadersPolicy: headers.api,
        },
        // Socket.IO for the spec's clients, on the same WebSocket API as our own protocol (ADR 0013). Every
        // viewer header (the WebSocket handshake's) and the query string (token, EIO) reach API Gateway.
        "/socket.io/*": {
          origin: new HttpOrigin(props.webSocketDomainName, { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          functionAssociations: [
            {
              function: new CloudFrontFunction(this, "SocketIoToStage", {
                code: FunctionCode.fromInline(socketIoRewriteCode(props.webSocketStage)),
                runtime: FunctionRuntime.JS_2_0,
                comment: "Atende: /socket.io/ -> the WebSocket API stage",
              }),
              eventType: FunctionEventType.VIEWER_REQUEST,
            },
          ],
          responseHeadersPolicy: headers.api,
        },
      },
    });

    this.deployContent(props);
  }

  /**
   * Two response-headers policies (docs/security.md "Headers"): the app's (strict CSP: scripts from our origin only,
   * the WebSocket URL in connect-src) and the API's (the API's own CSP kept: media answers carry a sandbox). Both:
   * HSTS, nosniff, no framing, referrer and permissions policies, COOP.
   */
  private responseHeaders(webSocketUrl: string) {
    if (REFERRER_POLICY !== "strict-origin-when-cross-origin") throw new Error("keep the CloudFront referrer policy in step with shared/constants/security-headers");
    const security = (csp: string, overrideCsp: boolean): ResponseSecurityHeadersBehavior => ({
      contentSecurityPolicy: { contentSecurityPolicy: csp, override: overrideCsp },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS), includeSubdomains: true, override: true },
    });
    const custom = {
      customHeaders: ["permissions-policy", "cross-origin-opener-policy"].map((header) => ({ header, value: COMMON_SECURITY_HEADERS[header]!, override: true })),
    };
    return {
      app: new ResponseHeadersPolicy(this, "AppHeaders", {
        comment: "Atende web app: CSP, HSTS, no framing",
        securityHeadersBehavior: security(appContentSecurityPolicy({ connectSrc: [webSocketUrl] }), true),
        customHeadersBehavior: custom,
      }),
      api: new ResponseHeadersPolicy(this, "ApiHeaders", {
        comment: "Atende /api: the API's CSP kept (media sandbox), HSTS, no framing",
        securityHeadersBehavior: security(API_CONTENT_SECURITY_POLICY, false),
        customHeadersBehavior: custom,
      }),
    };
  }

  private deployContent(props: WebProps) {
    const runtimeConfig = Source.jsonData("config.json", { wsUrl: props.webSocketUrl });
    let assets: BucketDeployment | undefined;
    if (props.webDistDir) {
      // Old hashed files stay (prune off) so a tab opened before the deploy can still load its chunks.
      assets = new BucketDeployment(this, "DeployAssets", {
        destinationBucket: this.bucket,
        sources: [Source.asset(props.webDistDir, { exclude: ENTRY_FILES })],
        cacheControl: IMMUTABLE,
        prune: false,
        memoryLimit: 512,
      });
    }
    const entry = new BucketDeployment(this, "DeployEntry", {
      destinationBucket: this.bucket,
      sources: props.webDistDir ? [Source.asset(props.webDistDir, { exclude: ["**", ...ENTRY_FILES.map((f) => `!${f}`)] }), runtimeConfig] : [runtimeConfig],
      cacheControl: REVALIDATE,
      prune: false,
      distribution: this.distribution,
      distributionPaths: [...ENTRY_FILES.map((f) => `/${f}`), "/config.json"],
    });
    // index.html goes live only after the files it references are in place.
    if (assets) entry.node.addDependency(assets);
  }
}
