import { splitSqlScript } from './sql-script';

describe('splitSqlScript', () => {
  it('splits at the semicolons that end statements', () => {
    expect(splitSqlScript('CREATE TABLE a (x int);\nALTER TABLE a ADD COLUMN y int;\n')).toEqual(['CREATE TABLE a (x int)', 'ALTER TABLE a ADD COLUMN y int']);
  });

  it('keeps a dollar-quoted function body whole', () => {
    const fn = 'CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  PERFORM 1;\n  RETURN NULL;\nEND $$';
    expect(splitSqlScript(`${fn};\nCREATE TRIGGER t AFTER INSERT ON a FOR EACH STATEMENT EXECUTE FUNCTION f();`)).toEqual([
      fn,
      'CREATE TRIGGER t AFTER INSERT ON a FOR EACH STATEMENT EXECUTE FUNCTION f()',
    ]);
    expect(splitSqlScript('SELECT $body$ a; b $body$; SELECT 2')).toEqual(['SELECT $body$ a; b $body$', 'SELECT 2']);
  });

  it('ignores semicolons in strings, quoted names and comments', () => {
    expect(splitSqlScript(`-- a comment; still one\nSELECT 'a;''b' AS "x;y";\n/* c; */ SELECT 2;\n-- trailing comment;\n`)).toEqual([
      `-- a comment; still one\nSELECT 'a;''b' AS "x;y"`,
      '/* c; */ SELECT 2',
    ]);
  });

  it('leaves a positional parameter alone', () => {
    expect(splitSqlScript('SELECT $1; SELECT 2')).toEqual(['SELECT $1', 'SELECT 2']);
  });
});
