// etcd source URLs: hosts, prefix, TLS files and credentials, which are never shown.
import { describe, expect, it } from 'vitest';
import { parseSource, SourceError } from '@/lib/lock/stores';
import { parseEtcdSource } from '@/lib/lock/stores/etcd/source';

describe('etcd sources', () => {
  it('reads several hosts and the key prefix after the first slash', () => {
    const s = parseEtcdSource('etcd://10.0.0.1:2379,10.0.0.2:2379/locks/');
    expect([s.hosts, s.prefix, s.display]).toEqual([
      ['10.0.0.1:2379', '10.0.0.2:2379'],
      'locks/',
      'etcd://10.0.0.1:2379,10.0.0.2:2379/locks/',
    ]);
    expect(parseEtcdSource('etcd://h:2379//locks/').prefix).toBe('/locks/');
    expect(parseEtcdSource('etcd://h:2379').prefix).toBe('');
  });

  it('takes a user and password from the URL or ETCD_USERNAME / ETCD_PASSWORD and never shows them', () => {
    const spec = parseSource('etcd://ops:s3cret@h:2379/locks/');
    expect(spec.id).toBe('etcd://h:2379/locks/');
    expect(JSON.stringify({ ...spec, url: undefined })).not.toContain('s3cret');
    expect(parseEtcdSource('etcd://ops:s3cret@h:2379/').auth).toEqual({ username: 'ops', password: 's3cret' });
    expect(parseEtcdSource('etcd://h:2379/', { ETCD_USERNAME: 'ro', ETCD_PASSWORD: 'pw' }).auth).toEqual({
      username: 'ro',
      password: 'pw',
    });
    expect(() => parseEtcdSource('etcd://ops@h:2379/')).toThrow(/no password: put it in the URL or ETCD_PASSWORD/);
  });

  it('names the problem and the fix for a bad URL', () => {
    expect(() => parseSource('etcd://h/locks/')).toThrow(SourceError);
    expect(() => parseSource('etcd://h/locks/')).toThrow(/"h" is not HOST:PORT \(the port is required\)/);
    expect(() => parseSource('etcd://h:2379/?ca=/x.pem')).toThrow(/use etcds:\/\//);
    expect(() => parseSource('etcds://h:2379/?cert=/c.pem')).toThrow(/both \?cert= and \?key=/);
    expect(() => parseSource('etcd://h:2379/?match=x')).toThrow(/Unknown etcd source parameter "match"/);
    expect(parseEtcdSource('etcds://h:2379/?ca=/ca.pem&cert=/c.pem&key=/k.pem').files).toEqual({
      ca: '/ca.pem',
      cert: '/c.pem',
      key: '/k.pem',
    });
  });
});
