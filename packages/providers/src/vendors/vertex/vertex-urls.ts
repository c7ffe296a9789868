// Vertex AI's addresses: the regional host (`https://{location}-aiplatform.googleapis.com`, no prefix for
// `global`, the `.rep.` hosts for the `us` and `eu` multi-regions), a location's resource URL, and a publisher
// model's method URL under it. Path segments are percent-encoded as the vendors' SDKs do.

export type VertexPublisher = 'google' | 'anthropic';

export interface VertexLocation {
  project: string;
  location: string;
}

export interface VertexModelAddress extends VertexLocation {
  model: string;
  stream: boolean;
}

const MULTI_REGIONS = new Set(['us', 'eu']);
/** Outside RFC 3986's segment characters, and `;` (which some servers cut a segment at). Model versions keep their `@`. */
const UNSAFE_IN_SEGMENT = /[^A-Za-z0-9\-._~!$&'()*+,=:@]+/g;

export function vertexHost(location: string): string {
  if (location === 'global') return 'https://aiplatform.googleapis.com';
  if (MULTI_REGIONS.has(location)) return `https://aiplatform.${location}.rep.googleapis.com`;
  return `https://${location}-aiplatform.googleapis.com`;
}

function segment(value: string, name: string): string {
  if (value === '' || value === '.' || value === '..') throw new RangeError(`The Vertex ${name} "${value}" cannot be a path segment.`);
  return value.replace(UNSAFE_IN_SEGMENT, encodeURIComponent);
}

/** `{base}/v1/projects/{project}/locations/{location}`: what a Vertex channel's base URL is. */
export function vertexLocationUrl({ project, location }: VertexLocation, baseUrl: string = vertexHost(location)): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/projects/${segment(project, 'project')}/locations/${segment(location, 'location')}`;
}

/** A publisher model's method under a location URL: `…/publishers/{publisher}/models/{model}:{method}`. */
export function vertexModelUrl(locationUrl: string, publisher: VertexPublisher, model: string, method: string): string {
  return `${locationUrl.replace(/\/+$/, '')}/publishers/${publisher}/models/${segment(model, 'model')}:${method}`;
}

export function vertexGeminiMethodUrl(locationUrl: string, model: string, stream: boolean): string {
  return stream
    ? `${vertexModelUrl(locationUrl, 'google', model, 'streamGenerateContent')}?alt=sse`
    : vertexModelUrl(locationUrl, 'google', model, 'generateContent');
}

export function vertexClaudeMethodUrl(locationUrl: string, model: string, stream: boolean): string {
  return vertexModelUrl(locationUrl, 'anthropic', model, stream ? 'streamRawPredict' : 'rawPredict');
}

export function vertexGeminiUrl(address: VertexModelAddress, baseUrl?: string): string {
  return vertexGeminiMethodUrl(vertexLocationUrl(address, baseUrl), address.model, address.stream);
}

export function vertexClaudeUrl(address: VertexModelAddress, baseUrl?: string): string {
  return vertexClaudeMethodUrl(vertexLocationUrl(address, baseUrl), address.model, address.stream);
}
