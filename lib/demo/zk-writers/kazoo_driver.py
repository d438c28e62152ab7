# Real kazoo contenders for Lockboard's tests and demo, driven line by line on stdin:
#   <id> <recipe> <path> <identifier> [arg]   recipe: lock, rlock, wlock, election, semaphore (arg: max), lease (arg: s)
#   <id> held | release | close
# Each contender has its own KazooClient (its own session). Replies on stdout: "<id> ok <value>" or "<id> err <msg>".
import datetime
import os
import sys
import threading
import time

from kazoo.client import KazooClient
from kazoo.exceptions import NoNodeError

HOSTS = sys.argv[1]
contenders = {}
out_lock = threading.Lock()


def reply(cid, status, value=""):
    with out_lock:
        sys.stdout.write(f"{cid} {status} {value}\n")
        sys.stdout.flush()


class Contender:
    def __init__(self, recipe, path, ident, arg):
        self.client = KazooClient(hosts=HOSTS, timeout=10.0)
        self.client.start()
        self.held = False
        self.done = threading.Event()
        self.recipe = recipe
        if recipe == "lock":
            self.obj = self.client.Lock(path, ident)
        elif recipe == "rlock":
            self.obj = self.client.ReadLock(path, ident)
        elif recipe == "wlock":
            self.obj = self.client.WriteLock(path, ident)
        elif recipe == "semaphore":
            self.obj = self.client.Semaphore(path, ident, max_leases=int(arg))
        elif recipe == "election":
            self.obj = self.client.Election(path, ident)
        elif recipe == "lease":
            lease = self.client.NonBlockingLease(path, datetime.timedelta(seconds=float(arg)), identifier=ident)
            self.held = bool(lease)
            return
        else:
            raise ValueError(f"unknown recipe {recipe}")
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        if self.recipe == "election":
            def lead():
                self.held = True
                self.done.wait()
            self.obj.run(lead)
        else:
            self.obj.acquire()
            self.held = True

    def queued(self):
        # the node is created before the recipe waits: wait until it exists (or the lock is held)
        for _ in range(200):
            if self.held or getattr(self.obj, "is_acquired", False) or self.has_node():
                return True
            time.sleep(0.025)
        return False

    def has_node(self):
        if self.recipe == "semaphore":  # it queues in the kazoo Lock at <path>-__lock__
            path = self.obj.lock_path
            try:
                for child in self.client.get_children(path):
                    data, _ = self.client.get(path + "/" + child)
                    if self.obj.data in data:
                        return True
            except NoNodeError:  # not created yet, or a contender left between the two reads
                pass
            return False
        return getattr(getattr(self.obj, "lock", self.obj), "node", None) is not None

    def is_held(self):
        if self.recipe in ("lock", "rlock", "wlock"):
            return self.obj.is_acquired
        return self.held


for line in sys.stdin:
    parts = line.split()
    if len(parts) < 2:
        continue
    cid, cmd = parts[0], parts[1]
    key = cid.split("#")[0]  # the reply carries the whole tag, the contender is the part before '#'
    try:
        if cmd == "held":
            reply(cid, "ok", str(contenders[key].is_held()))
        elif cmd == "release":
            c = contenders[key]
            c.done.set()
            if hasattr(c, "obj") and hasattr(c.obj, "release"):
                c.obj.release()
            reply(cid, "ok")
        elif cmd == "close":
            c = contenders.pop(key)
            c.client.stop()
            c.client.close()
            reply(cid, "ok")
        else:
            c = Contender(cmd, parts[2], parts[3], parts[4] if len(parts) > 4 else None)
            contenders[key] = c
            if c.recipe != "lease":
                c.queued()
            reply(cid, "ok", str(c.is_held()))
    except Exception as e:  # reported to the test, never a silent hang
        reply(cid, "err", repr(e).replace("\n", " "))

for c in list(contenders.values()):
    c.client.stop()
os._exit(0)  # kazoo's threads would keep the interpreter alive
