# One kazoo Lock holder with a session timeout of its own, for tests of a session between connections. Run with
# Debian's /usr/bin/python3 (python3-kazoo): kazoo-holder.py HOSTS PATH IDENTIFIER TIMEOUT_S. Prints one JSON line per
# event on stdout: {"event": "held", "sid": "0x…", "node": …} once it holds, then {"event": "state", "state": …,
# "sid": …} at each connection change (SUSPENDED while between connections, CONNECTED on the same session, LOST
# when the session expired). It holds until its stdin closes.
import json
import sys

from kazoo.client import KazooClient
from kazoo.retry import KazooRetry

HOSTS, PATH, IDENT, TIMEOUT = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])


def say(**event):
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


retry = KazooRetry(max_tries=-1, delay=0.2, max_delay=1.0)
client = KazooClient(hosts=HOSTS, timeout=TIMEOUT, connection_retry=retry)
client.add_listener(lambda state: say(event="state", state=str(state), sid=hex(client.client_id[0]) if client.client_id else None))
client.start()
lock = client.Lock(PATH, IDENT)
lock.acquire()
say(event="held", sid=hex(client.client_id[0]), node=lock.node, timeout=client._session_timeout)
sys.stdin.read()
