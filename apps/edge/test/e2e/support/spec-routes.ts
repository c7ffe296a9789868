/**
 * The public routes as the interface spec writes them (section 4.x): table rows `| METHOD | \`/path\` |`,
 * prose like "`POST /msgc/v1/messages`", and the pass-through paths of 4.9 whose methods the spec leaves open.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@gateway/cli';

export const SPEC_FILE = path.resolve(REPO_ROOT, '..', 'shared', 'spec', 'gateway-interface.md');

const FAMILY_PREFIX = /^\/(oaic|msgc|genc|dsc|nativemedia|music|v1)\//;

export interface SpecRoutes {
  /** `METHOD /path` with parameters written `{}`. */
  routes: Set<string>;
  /** Paths whose methods the spec does not give (pass-through). */
  anyMethod: Set<string>;
}

/** `{task_id}` and `{image_model}` are the same slot; queries are not part of a route. */
export function normalizePath(raw: string): string {
  const pathOnly = raw.split('?')[0]!;
  const absolute = FAMILY_PREFIX.test(pathOnly) ? pathOnly : `/oaic/v1${pathOnly}`;
  return absolute.replace(/\{[^}]+\}/g, '{}');
}

export function parseSpecRoutes(markdown: string): SpecRoutes {
  const routes = new Set<string>();
  const anyMethod = new Set<string>();
  let section = '';
  for (const line of markdown.split('\n')) {
    const heading = /^#{2,3} (\d+(?:\.\d+)?)/.exec(line);
    if (heading) section = heading[1]!;
    if (!section.startsWith('4.')) continue;
    const row = /^\|\s*(GET|POST|PUT|DELETE|PATCH)\s*\|\s*`([^`]+)`\s*\|/.exec(line);
    if (row) routes.add(`${row[1]} ${normalizePath(row[2]!)}`);
    for (const match of line.matchAll(/`(GET|POST|PUT|DELETE|PATCH) (\/[^`\s]+)`/g)) routes.add(`${match[1]} ${normalizePath(match[2]!)}`);
    if (section === '4.9') {
      for (const match of line.matchAll(/`(\/[^`\s]+)`/g)) anyMethod.add(normalizePath(match[1]!));
    }
  }
  return { routes, anyMethod };
}

export function loadSpecRoutes(): SpecRoutes {
  return parseSpecRoutes(readFileSync(SPEC_FILE, 'utf8'));
}
