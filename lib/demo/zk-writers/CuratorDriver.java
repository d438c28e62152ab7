// Real Curator contenders for Lockboard's tests and demo, run as a single-file source with Debian's Curator jars.
// Lines on stdin: "<id> <recipe> <path> [identifier] [max]" (mutex, latch, selector, semaphore, read, write),
// "<id> held", "<id> release", "<id> close". Each contender has its own CuratorFramework (its own session).
import java.io.*;
import java.util.*;
import java.util.concurrent.*;
import org.apache.curator.framework.*;
import org.apache.curator.framework.recipes.leader.*;
import org.apache.curator.framework.recipes.locks.*;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryOneTime;

public class CuratorDriver {
  static final Map<String, Contender> contenders = new ConcurrentHashMap<>();
  static String hosts;

  static synchronized void reply(String id, String status, String value) {
    System.out.println(id + " " + status + " " + value);
    System.out.flush();
  }

  static class Contender {
    final CuratorFramework client;
    volatile boolean held;
    final CountDownLatch done = new CountDownLatch(1);
    Object recipe;
    Lease lease;

    Contender(String kind, String path, String ident, String arg) throws Exception {
      client = CuratorFrameworkFactory.builder().connectString(hosts).sessionTimeoutMs(10000)
          .connectionTimeoutMs(5000).retryPolicy(new RetryOneTime(200)).build();
      client.start();
      client.blockUntilConnected(10, TimeUnit.SECONDS);
      switch (kind) {
        case "latch": {
          LeaderLatch latch = new LeaderLatch(client, path, ident);
          latch.start();
          recipe = latch;
          break;
        }
        case "selector": {
          LeaderSelector s = new LeaderSelector(client, path, new LeaderSelectorListenerAdapter() {
            public void takeLeadership(CuratorFramework c) throws Exception { held = true; done.await(); held = false; }
          });
          s.setId(ident); // "" = no id: the node's data is then the local address, as an InterProcessMutex's
          s.start();
          recipe = s;
          break;
        }
        default: {
          InterProcessLock lock;
          InterProcessSemaphoreV2 sem = null;
          if (kind.equals("mutex")) lock = new InterProcessMutex(client, path);
          else if (kind.equals("read")) lock = new InterProcessReadWriteLock(client, path).readLock();
          else if (kind.equals("write")) lock = new InterProcessReadWriteLock(client, path).writeLock();
          else { sem = new InterProcessSemaphoreV2(client, path, Integer.parseInt(arg)); lock = null; }
          final InterProcessLock l = lock;
          final InterProcessSemaphoreV2 s = sem;
          recipe = l != null ? l : s;
          Thread t = new Thread(() -> {
            try {
              if (l != null) l.acquire(); else lease = s.acquire();
              held = true;
              done.await();
              if (l != null) l.release(); else s.returnLease(lease);
            } catch (Exception e) { /* session closed */ }
          });
          t.setDaemon(true);
          t.start();
        }
      }
    }

    // the recipe's own answer where it has one (it never watches its own node: a deleted node leaves it true)
    boolean isHeld() {
      if (recipe instanceof LeaderLatch) return ((LeaderLatch) recipe).hasLeadership();
      if (recipe instanceof LeaderSelector) return ((LeaderSelector) recipe).hasLeadership();
      if (recipe instanceof InterProcessMutex) return ((InterProcessMutex) recipe).isAcquiredInThisProcess();
      return held;
    }
  }

  public static void main(String[] args) throws Exception {
    hosts = args[0];
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    for (String line; (line = in.readLine()) != null; ) {
      String[] p = line.trim().split("\\s+");
      if (p.length < 2) continue;
      String id = p[0];
      String key = id.split("#")[0]; // the reply carries the whole tag, the contender is the part before '#'
      try {
        switch (p[1]) {
          case "held": reply(id, "ok", String.valueOf(contenders.get(key).isHeld())); break;
          case "release": {
            Contender c = contenders.get(key);
            c.done.countDown();
            if (c.recipe instanceof LeaderLatch) ((LeaderLatch) c.recipe).close();
            Thread.sleep(100);
            reply(id, "ok", "");
            break;
          }
          case "close": contenders.remove(key).client.close(); reply(id, "ok", ""); break;
          default: {
            Contender c = new Contender(p[1], p[2], p.length > 3 ? p[3] : "", p.length > 4 ? p[4] : "1");
            contenders.put(key, c);
            // its node is created before it waits: wait until it appears among the path's children
            for (int i = 0; i < 200 && !c.isHeld() && !hasNodeOf(c, p[1], p[2]); i++) Thread.sleep(25);
            reply(id, "ok", String.valueOf(c.isHeld()));
          }
        }
      } catch (Exception e) {
        reply(id, "err", String.valueOf(e).replace('\n', ' '));
      }
    }
    for (Contender c : contenders.values()) c.client.close();
    System.exit(0); // Curator's threads would keep the JVM alive
  }

  static boolean hasNodeOf(Contender c, String kind, String path) throws Exception {
    String dir = kind.equals("semaphore") ? path + "/locks" : path;
    String leases = path + "/leases";
    long sid = c.client.getZookeeperClient().getZooKeeper().getSessionId();
    for (String d : kind.equals("semaphore") ? new String[] {dir, leases} : new String[] {dir}) {
      if (c.client.checkExists().forPath(d) == null) continue;
      for (String n : c.client.getChildren().forPath(d)) {
        org.apache.zookeeper.data.Stat st = c.client.checkExists().forPath(d + "/" + n);
        if (st != null && st.getEphemeralOwner() == sid) return true;
      }
    }
    return false;
  }
}
