// mysql:// and mariadb:// sources as the registry parses them: the display form never carries the password, TLS
// options as mysql2 takes them, mistakes named with their fix.
import { describe, expect, it } from 'vitest';
import { parseSource, SourceError } from '@/lib/lock/stores';
import { parseMysqlSource } from '@/lib/lock/stores/mysql';

describe('MySQL sources', () => {
  it('parses mysql:// and mariadb:// without showing the password', () => {
    const spec = parseSource('mysql://app:s3cret@db.internal:3307/orders');
    expect(spec).toMatchObject({ kind: 'mysql', id: 'mysql://db.internal:3307/orders' });
    expect(JSON.stringify({ ...spec, url: undefined })).not.toContain('s3cret');
    expect(parseSource('mariadb://root@127.0.0.1/app').id).toBe('mariadb://127.0.0.1:3306/app');
    expect(parseMysqlSource('mysql://app:p%40ss@h/db')).toMatchObject({ user: 'app', password: 'p@ss', port: 3306 });
  });

  it('takes TLS as mysql2 does', () => {
    expect(parseMysqlSource('mysql://u@h/db?ssl=true').ssl).toEqual({});
    expect(parseMysqlSource('mysql://u@h/db?ssl={"rejectUnauthorized":false}').ssl).toEqual({
      rejectUnauthorized: false,
    });
    expect(parseMysqlSource('mysql://u@h/db?ssl-ca=/etc/ssl/db.pem').ssl).toEqual({ ca: '/etc/ssl/db.pem' });
    expect(parseMysqlSource('mysql://u@h/db?ssl=false').ssl).toBeUndefined();
  });

  it('names what is wrong, never the password', () => {
    expect(() => parseSource('mysql://u:hunter2@h')).toThrow(SourceError);
    expect(() => parseSource('mysql://u:hunter2@h')).toThrow(/needs a host and a database/);
    expect(() => parseSource('mysql://u@h/db?timezone=Z')).toThrow(/Unknown MySQL source parameter "timezone"/);
    try {
      parseSource('mysql://u:hunter2@h/db?ssl={bad');
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2');
      expect((err as Error).message).toMatch(/\?ssl= takes true, false or mysql2 SSL options/);
    }
  });
});
