/**
 * The gateway's one rule for what an image counts in input tokens, in its two uses. Vendors bill images
 * as tokens after scaling them down; no bytes are decoded here, so each image counts a fixed number.
 */

/**
 * A typical image, for an estimate (count_tokens, and usage when an upstream reports none): the cost
 * of one 512-px tile at OpenAI's detail, about what a small image costs anywhere.
 */
export const IMAGE_TOKEN_ESTIMATE = 85;

/**
 * What one image may cost at most, whether sent by URL or inline, at any size or detail, for a request's
 * hold: OpenAI's high detail is at most 85 + 170 per 512-px tile of a 768×2048 image (1,445); Anthropic
 * about width × height / 750 of an image scaled to 1.15 megapixels (about 1,600); Gemini 258 per 768-px
 * tile. An image billed above this (a very large Gemini tiling, a video part) is still charged, as an
 * overrun, as far as the balance reaches.
 */
export const IMAGE_TOKEN_ALLOWANCE = 1600;
