import { fillRoutePath } from './route-path';

describe('fillRoutePath', () => {
  it('fills each parameter encoded and leaves the other fields for the query or body', () => {
    expect(fillRoutePath('/admin/keys/:id/revoke', { id: 'a/b c' })).toEqual({ path: '/admin/keys/a%2Fb%20c/revoke', rest: {} });
    expect(fillRoutePath('/console/api/keys/:id/limits', { id: 'k1', limits: null })).toEqual({ path: '/console/api/keys/k1/limits', rest: { limits: null } });
    expect(fillRoutePath('/admin/usage', { tenant: 'acme' })).toEqual({ path: '/admin/usage', rest: { tenant: 'acme' } });
  });
});
