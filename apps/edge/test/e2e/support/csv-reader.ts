/** A strict RFC 4180 reader for the specs: quoted cells with doubled quotes, CRLF rows; anything else throws. */
export function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const cell = (): string => {
    if (text[i] !== '"') {
      const start = i;
      while (i < text.length && text[i] !== ',' && !(text[i] === '\r' && text[i + 1] === '\n')) {
        if (text[i] === '"' || text[i] === '\n' || text[i] === '\r') throw new Error(`an unquoted cell holds a quote or line break at ${i}`);
        i++;
      }
      return text.slice(start, i);
    }
    let value = '';
    for (i++; ; i++) {
      if (i >= text.length) throw new Error('a quoted cell never ends');
      if (text[i] === '"') {
        if (text[i + 1] !== '"') break;
        value += '"';
        i++;
      } else value += text[i];
    }
    i++;
    return value;
  };
  while (i < text.length) {
    row.push(cell());
    if (text[i] === ',') {
      i++;
    } else if (text[i] === '\r' && text[i + 1] === '\n') {
      rows.push(row);
      row = [];
      i += 2;
    } else throw new Error(`expected a comma or CRLF at ${i}`);
  }
  if (row.length > 0) throw new Error('the last row has no CRLF');
  return rows;
}
