import { safeContentType, servedObjectHeaders } from './served-object';

describe('served objects', () => {
  it('keeps known inert types and turns every other claim into application/octet-stream', () => {
    expect(safeContentType('image/png')).toBe('image/png');
    expect(safeContentType('Application/JSON; charset=utf-8')).toBe('application/json');
    for (const claimed of [
      'text/html',
      'text/html; charset=utf-8',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/xml',
      'application/javascript',
      '',
      undefined,
      null,
    ]) {
      expect(safeContentType(claimed)).toBe('application/octet-stream');
    }
  });

  it('marks every answer nosniff, sandboxed and a download', () => {
    expect(servedObjectHeaders('text/html')).toEqual({
      'content-type': 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'attachment',
      'content-security-policy': 'sandbox',
    });
  });

  it('lets only playable media results inline', () => {
    expect(servedObjectHeaders('video/mp4', { inline: true })['content-disposition']).toBe('inline');
    expect(servedObjectHeaders('audio/mpeg', { inline: true })['content-disposition']).toBe('inline');
    expect(servedObjectHeaders('image/svg+xml', { inline: true })['content-disposition']).toBe('attachment');
    expect(servedObjectHeaders('application/json', { inline: true })['content-disposition']).toBe('attachment');
  });
});
