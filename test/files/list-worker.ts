// Lists a lock directory and prints each lock's name, health and note as JSON: run by the non-root test as another
// user (setpriv), to see what a console without root can know.
import { FilesLockStore } from '../../lib/lock/stores/files/store';
import { parseFilesSource } from '../../lib/lock/stores/files/source';

const store = new FilesLockStore(parseFilesSource(`file://${process.argv[2]}`));
void store.list().then((page) => {
  process.stdout.write(JSON.stringify(page.locks.map((l) => [l.name, l.health, l.identity ?? '', l.note ?? ''])));
});
