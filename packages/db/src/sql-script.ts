/**
 * Splits a migration script into its statements at the semicolons that end them: not those inside a
 * quoted string or identifier, a dollar-quoted body (a function's) or a comment.
 */
export function splitSqlScript(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const skipTo = (end: string, from: number): number => {
    const at = script.indexOf(end, from);
    return at === -1 ? script.length : at + end.length;
  };
  while (i < script.length) {
    const c = script[i]!;
    if (c === "'" || c === '"') {
      // A doubled quote inside is two quoted strings back to back: same result.
      i = skipTo(c, i + 1);
    } else if (c === '-' && script[i + 1] === '-') {
      i = skipTo('\n', i + 2);
    } else if (c === '/' && script[i + 1] === '*') {
      i = skipTo('*/', i + 2);
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(script.slice(i))?.[0];
      i = tag ? skipTo(tag, i + tag.length) : i + 1;
    } else if (c === ';') {
      statements.push(script.slice(start, i));
      i += 1;
      start = i;
    } else {
      i += 1;
    }
  }
  statements.push(script.slice(start));
  return statements.map((s) => s.trim()).filter((s) => s.length > 0 && !/^(--[^\n]*\n?\s*)+$/.test(s + '\n'));
}
