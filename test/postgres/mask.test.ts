// What a viewer sees of a holder's current query (#39 item 7): literals, comments and SET / PASSWORD values masked.
import { describe, expect, it } from 'vitest';
import { maskQuery } from '@/lib/lock/stores/postgres/mask';

describe('maskQuery', () => {
  it('masks comments, which can carry secrets as well as literals do', () => {
    expect(maskQuery('SELECT 1 -- password=hunter2\n, 2')).toBe('SELECT ? -- ?\n, ?');
    expect(maskQuery('SELECT /* token: s3cr3t */ pg_advisory_lock(7)')).toBe('SELECT /* ? */ pg_advisory_lock(?)');
    expect(maskQuery('SELECT 1 /* unterminated secret')).toBe('SELECT ? /* ? */');
  });

  it('masks passwords and SET values, quoted or not', () => {
    expect(maskQuery("ALTER ROLE app WITH ENCRYPTED PASSWORD 'SCRAM-SHA-256$4096:abc'")).toBe(
      'ALTER ROLE app WITH ENCRYPTED PASSWORD ?',
    );
    expect(maskQuery('SET app.api_key = abc123')).toBe('SET app.api_key = ?');
    expect(maskQuery("SET SESSION my.secret TO 'x'")).toBe('SET SESSION my.secret TO ?');
    expect(maskQuery('ALTER ROLE app SET app.token TO deadbeef')).toBe('ALTER ROLE app SET app.token TO ?');
  });

  it('reads tokens left to right: a -- in a string is no comment, identifiers stay', () => {
    expect(maskQuery(`SELECT '--x', "col--y", $q$body$q$ FROM t1`)).toBe('SELECT ?, "col--y", ? FROM t1');
    expect(maskQuery('SELECT t1.c2 FROM t1 WHERE id = 42')).toBe('SELECT t1.c2 FROM t1 WHERE id = ?');
  });
});
