// A source URL is never shown with its password, valid or not (#39 item 7): configuration errors and CLI messages.
import { describe, expect, it } from 'vitest';
import { parseSource } from '@/lib/lock/stores';
import { parseEnv } from '@/lib/server/env';

const SECRET = 'hunter2-secret';
const BAD = [
  `postgress://app:${SECRET}@db/x`,
  `postgres://app:${SECRET}@db`,
  `postgres:/app:${SECRET}@db/x`,
  `redis://:${SECRET}@h:99999/0`,
  `dynamodb://app:${SECRET}@`,
  `postgres://app@db?password=${SECRET}`,
];

describe('source URLs with passwords', () => {
  it('names a mistyped source without its password', () => {
    for (const url of BAD) {
      let message = '';
      try {
        parseSource(url);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, url).not.toBe('');
      expect(message, url).not.toContain(SECRET);
    }
  });

  it('keeps the password out of the console configuration error', () => {
    let message = '';
    try {
      parseEnv({ LOCKBOARD_SOURCES: BAD.join(','), NEXTAUTH_SECRET: 'x'.repeat(32) });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/LOCKBOARD_SOURCES/);
    expect(message).toContain('postgress://app:***@db/x');
    expect(message).not.toContain(SECRET);
  });
});
