import { CallbackTokenSigner } from './callback-token';

describe('CallbackTokenSigner', () => {
  const signer = new CallbackTokenSigner('a-secret-of-sixteen-chars');
  const taskId = `task_${'ab'.repeat(16)}`;

  it('issues a token the intake shape accepts and that names its task', () => {
    const token = signer.tokenOf(taskId);
    expect(token).toMatch(/^task_[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/);
    expect(signer.taskIdOf(token)).toBe(taskId);
  });

  it('refuses a token of another secret, another task or a changed signature', () => {
    const token = signer.tokenOf(taskId);
    expect(new CallbackTokenSigner('another-secret-of-16-chars').taskIdOf(token)).toBeNull();
    expect(signer.taskIdOf(token.replace(taskId, `task_${'cd'.repeat(16)}`))).toBeNull();
    const mac = token.slice(token.indexOf('.') + 1);
    const flipped = (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1);
    expect(signer.taskIdOf(`${taskId}.${flipped}`)).toBeNull();
    expect(signer.taskIdOf(taskId)).toBeNull();
  });
});
