// Discovery on etcd: `etcd://HOST:PORT` is listed as `ls etcd://HOST:PORT/` lists it (one range of every key, read
// within the store's bounds), its locks grouped by their first key segment (`locks/`, `/election/`).
import { selfRoot, TargetError, type Discovery } from '../discovery';

export const etcdDiscovery: Discovery = {
  target: 'etcd://HOST:PORT',
  async roots(target) {
    const m = /^(etcds?:\/\/[^/?#]+)\/?(\?[^#]*)?$/i.exec(target);
    if (!m) throw new TargetError(`expected etcd://HOST:PORT (no key prefix), got ${JSON.stringify(target)}`);
    return selfRoot(`${m[1]}/${m[2] ?? ''}`);
  },
  narrow(root, group) {
    if (!group.endsWith('/')) return undefined;
    const [base = root, query = ''] = root.split(/(?=\?)/);
    return `${base}${encodeURI(group)}${query}`;
  },
};
