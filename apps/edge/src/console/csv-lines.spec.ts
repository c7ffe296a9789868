import { csvLine } from './csv-lines';

describe('csvLine', () => {
  it('quotes cells with commas, quotes or line breaks and ends with CRLF', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 3, null])).toBe('"a,b","say ""hi""","two\nlines",3,\r\n');
  });

  it('prefixes every cell beginning with = + - @ tab or CR with a quote mark, whatever follows', () => {
    expect(csvLine(['=1+1', '+x', '@sum', '-cmd', "-1+1+cmd|' /C calc'!A0", '+2', '\tx', '\rx'])).toBe(
      "'=1+1,'+x,'@sum,'-cmd,'-1+1+cmd|' /C calc'!A0,'+2,'\tx,\"'\rx\"\r\n",
    );
  });

  it('leaves other cells and numbers as they are', () => {
    expect(csvLine(['sandbox-gpt', 0, 12, 'a=b'])).toBe('sandbox-gpt,0,12,a=b\r\n');
  });
});
