import { adminHostNames, assertAdminExposure, hostNameOf, isLoopbackHost } from './admin-exposure';

describe('admin exposure', () => {
  it('tells loopback addresses from others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'admin.example', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('refuses a non-loopback ADMIN_HOST without ADMIN_TOKEN, naming both', () => {
    expect(() => assertAdminExposure({ ADMIN_HOST: '0.0.0.0', ADMIN_TOKEN: undefined })).toThrow(/ADMIN_HOST=0\.0\.0\.0.*ADMIN_TOKEN is unset/);
    expect(() => assertAdminExposure({ ADMIN_HOST: '0.0.0.0', ADMIN_TOKEN: 't' })).not.toThrow();
    expect(() => assertAdminExposure({ ADMIN_HOST: '127.0.0.1', ADMIN_TOKEN: undefined })).not.toThrow();
  });

  it('reads the host name of a Host header without its port', () => {
    expect(hostNameOf('127.0.0.1:8081')).toBe('127.0.0.1');
    expect(hostNameOf('[::1]:8081')).toBe('[::1]');
    expect(hostNameOf('Admin.Example')).toBe('admin.example');
  });

  it('answers to loopback names, its own address and the configured names', () => {
    const names = adminHostNames('10.0.0.5', ['ops.internal.example']);
    for (const name of ['localhost', '127.0.0.1', '[::1]', '10.0.0.5', 'ops.internal.example']) expect(names.has(name)).toBe(true);
    expect(names.has('attacker.example')).toBe(false);
    expect(adminHostNames('0.0.0.0', []).has('0.0.0.0')).toBe(true);
    expect(adminHostNames('::', []).has('[::]')).toBe(true);
  });
});
