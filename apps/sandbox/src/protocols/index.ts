// Every protocol the sandbox speaks, each mounted under its own prefix. A new vendor is one more folder
// and one more line here.
import type { SandboxProtocol } from '../core/protocol';
import { azureOpenaiProtocol } from './azure-openai/azure-openai.protocol';
import { anthropicProtocol } from './anthropic/anthropic.protocol';
import { geminiProtocol } from './gemini/gemini.protocol';
import { musicProtocol } from './music/music.protocol';
import { openaiProtocol } from './openai/openai.protocol';
import { dashscopeProtocol } from './dashscope/dashscope.protocol';
import { klingProtocol } from './kling/kling.protocol';
import { mediaResultsProtocol } from './media-results/media-results.protocol';
import { vertexProtocol } from './vertex/vertex.protocol';
import { bedrockProtocol } from './bedrock/bedrock.protocol';

export const PROTOCOLS: readonly SandboxProtocol[] = [
  openaiProtocol,
  anthropicProtocol,
  geminiProtocol,
  bedrockProtocol,
  dashscopeProtocol,
  klingProtocol,
  mediaResultsProtocol,
  musicProtocol,
  vertexProtocol,
  azureOpenaiProtocol,
];
