// The one key pair and region the sandbox's Bedrock accepts: specs and the sandbox catalog sign with these.
export const BEDROCK_TEST_ACCESS_KEY_ID = 'AKIASANDBOXBEDROCK01';
export const BEDROCK_TEST_SECRET_ACCESS_KEY = 'sandbox/bedrock/secret/key/not/a/real/one00';
export const BEDROCK_SANDBOX_REGION = 'us-east-1';
export const BEDROCK_SIGNING_SERVICE = 'bedrock';
/** How far a request's signing date may stand from the sandbox's clock, as AWS allows. */
export const BEDROCK_CLOCK_SKEW_MS = 5 * 60 * 1000;
