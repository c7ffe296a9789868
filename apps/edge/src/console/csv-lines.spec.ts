import { csvLine } from './csv-lines';

describe('csvLine', () => {
  it('quotes cells with commas, quotes or line breaks and ends with CRLF', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 3, null])).toBe('"a,b","say ""hi""","two\nlines",3,\r\n');
  });

  it('defuses cells a spreadsheet would run as formulas, but keeps negative numbers', () => {
    expect(csvLine(['=1+1', '+x', '@sum', '-cmd', '-0.25', '-3'])).toBe("'=1+1,'+x,'@sum,'-cmd,-0.25,-3\r\n");
  });
});
