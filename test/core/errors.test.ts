import { describe, expect, it } from 'vitest';
import { HubError, isHubError } from '../../src/core/errors.js';

describe('HubError', () => {
  it('carries kind, status and code as values', () => {
    const error = new HubError('api', 'The service answered code 500; retry later.', { status: 200, code: 500 });
    expect(error).toBeInstanceOf(Error);
    expect(error.kind).toBe('api');
    expect(error.status).toBe(200);
    expect(error.code).toBe(500);
    expect(error.name).toBe('HubError');
  });

  it('leaves status and code absent when not given', () => {
    const error = new HubError('network', 'Check the connection.');
    expect('status' in error).toBe(false);
    expect('code' in error).toBe(false);
  });

  it('isHubError narrows by kind', () => {
    const error = new HubError('timeout', 'x');
    expect(isHubError(error)).toBe(true);
    expect(isHubError(error, 'timeout')).toBe(true);
    expect(isHubError(error, 'api')).toBe(false);
    expect(isHubError(new Error('x'))).toBe(false);
  });
});
