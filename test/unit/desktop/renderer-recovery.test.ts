import { describe, expect, it } from 'vitest';
import { chosen, recoveryPrompt, startFailureMessage, type RenderGoneReason } from '../../../electron/services/desktop/renderer-recovery.js';

const LOGS = '/home/alex/.config/Capacity Desk/logs';

describe('renderer recovery', () => {
  it('offers Reload / Close / Wait for a hung window, Wait being the default and the cancel choice', () => {
    const prompt = recoveryPrompt({ kind: 'unresponsive' }, LOGS)!;
    expect(prompt.buttons).toEqual(['Reload', 'Close', 'Wait']);
    expect(chosen(prompt, 0)).toBe('reload');
    expect(chosen(prompt, 1)).toBe('close');
    expect(chosen(prompt, 2)).toBe('wait');
    expect(chosen(prompt, prompt.defaultId)).toBe('wait');
    expect(chosen(prompt, prompt.cancelId)).toBe('wait');
    expect(prompt.detail).toContain(LOGS);
    expect(prompt.log).toEqual({ level: 'warn', message: 'the window stopped responding' });
  });

  it('offers Reload / Close for a page that is gone, naming why in the box and the log', () => {
    const reasons: RenderGoneReason[] = ['abnormal-exit', 'killed', 'crashed', 'oom', 'launch-failed', 'integrity-failure', 'memory-eviction'];
    for (const reason of reasons) {
      const prompt = recoveryPrompt({ kind: 'gone', reason, exitCode: 139 }, LOGS)!;
      expect(prompt.buttons).toEqual(['Reload', 'Close']);
      expect(chosen(prompt, prompt.defaultId)).toBe('reload');
      expect(chosen(prompt, prompt.cancelId)).toBe('close');
      expect(prompt.log.level).toBe('error');
      expect(prompt.log.message).toContain(`reason ${reason}, exit code 139`);
      expect(prompt.detail).toContain(LOGS);
    }
    expect(recoveryPrompt({ kind: 'gone', reason: 'oom', exitCode: 0 }, LOGS)?.message).toMatch(/ran out of memory/);
  });

  it('says nothing when the page exited cleanly (the window closing)', () => {
    expect(recoveryPrompt({ kind: 'gone', reason: 'clean-exit', exitCode: 0 }, LOGS)).toBeNull();
  });

  it('treats an unexpected answer from the box as the cancel choice, never as a reload', () => {
    const prompt = recoveryPrompt({ kind: 'gone', reason: 'crashed', exitCode: 1 }, LOGS)!;
    expect(chosen(prompt, 7)).toBe('close');
    expect(chosen(prompt, -1)).toBe('close');
  });

  it('names the failure and the log folder when the app cannot start', () => {
    const message = startFailureMessage(new Error('EACCES: permission denied, mkdir /data'), LOGS);
    expect(message.title).toBe('Capacity Desk could not start');
    expect(message.content).toContain('EACCES: permission denied, mkdir /data');
    expect(message.content).toContain(LOGS);
    expect(startFailureMessage('plain text', LOGS).content).toContain('plain text');
  });
});
