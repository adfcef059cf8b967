package io.hare.yarn.scheduler.web;

import io.hare.yarn.scheduler.SchedulerReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts Hare's scheduler page and REST answer on the ResourceManager's web server
 * ({@link HareWebFilter}). YARN's web app has no hook for them that works for a FIFO-derived
 * scheduler on Hadoop 3.4 and 3.5 (see the README, "The scheduler page"), so the scheduler adds
 * {@link HareWebFilterInitializer} to the RM's {@code hadoop.http.filter.initializers} when it is
 * initialised, before the RM builds its web server, and registers where its reports come from
 * when it starts: on the active RM only.
 *
 * <p>Several ResourceManagers may live in one JVM (tests, an HA mini cluster): each RM's
 * scheduler registers under an id kept in that RM's configuration ({@link #INSTANCE_KEY}), which
 * travels to its web server's filter, so each page shows its own scheduler, and the scheduler an
 * RM re-creates when it becomes active takes its predecessor's place.
 */
public final class HareWeb {

  private static final Logger LOG = LoggerFactory.getLogger(HareWeb.class);

  /** Internal: the id of the scheduler whose reports an RM's filter shows. */
  static final String INSTANCE_KEY = "io.hare.yarn.scheduler.web.instance";
  static final String INITIALIZERS = "hadoop.http.filter.initializers";
  // what the RM's RMWebAppUtil puts first when it finds Hadoop's default list (insecure RM)
  private static final String STATIC_USER = "org.apache.hadoop.http.lib.StaticUserWebFilter";
  private static final String RM_AUTH =
      "org.apache.hadoop.yarn.server.security.http.RMAuthenticationFilterInitializer";

  private static final Map<String, Supplier<SchedulerReport>> REPORTS =
      new ConcurrentHashMap<>();

  private HareWeb() {}

  /**
   * Adds the filter initializer to {@code rmConf} (the RM's own configuration object, which the
   * RM reads again when it starts its web server) and returns the id under which the RM's
   * scheduler serves its page ({@link #serve}).
   */
  public static String install(Configuration rmConf) {
    // an RM that becomes active re-creates its scheduler with the same configuration while its
    // web server, built once, keeps the id it was given: the new scheduler takes the old id over
    String id = rmConf.get(INSTANCE_KEY);
    if (id == null) {
      id = UUID.randomUUID().toString();
      rmConf.set(INSTANCE_KEY, id);
    }
    String before = rmConf.get(INITIALIZERS, "");
    String after = withInitializer(before, UserGroupInformation.isSecurityEnabled());
    if (!after.equals(before)) {
      rmConf.set(INITIALIZERS, after);
      if (!before.contains(RM_AUTH) && after.contains(RM_AUTH)) {
        rmConf.set("hadoop.http.authentication.type", "simple"); // as the RM sets it
      }
      LOG.info("RM web server: Hare's scheduler page on /cluster/scheduler and REST answer on {}"
          + " ({} = {})", HareWebFilter.REST_PATH, INITIALIZERS, after);
    }
    return id;
  }

  /**
   * Answers the page and the REST path of the RM given {@code id} with {@code reports} until the
   * result is closed. For a started scheduler only: a standby RM has its scheduler made but not
   * started, and there the filter lets requests through to YARN, which sends them on to the
   * active RM as it does its own pages.
   */
  public static AutoCloseable serve(String id, Supplier<SchedulerReport> reports) {
    REPORTS.put(id, reports);
    return () -> REPORTS.remove(id, reports); // unless a successor took the id over
  }

  /**
   * The initializer list with Hare's appended. An insecure RM replaces Hadoop's default list
   * (the static-user filter alone, or none) with its own authentication filter first, but only
   * when it finds exactly that default; that list is written out here so the RM's filters stay
   * what they would be without Hare.
   */
  static String withInitializer(String list, boolean secure) {
    List<String> names = new ArrayList<>();
    for (String s : list.split(",")) {
      if (!s.trim().isEmpty()) {
        names.add(s.trim());
      }
    }
    if (names.contains(HareWebFilterInitializer.class.getName())) {
      return list;
    }
    if (!secure && (names.isEmpty() || names.equals(List.of(STATIC_USER)))) {
      names.add(0, RM_AUTH);
    }
    names.add(HareWebFilterInitializer.class.getName());
    return String.join(",", names);
  }

  /** The reports of the scheduler registered as {@code id}; null if none (stopped, or not Hare). */
  static Supplier<SchedulerReport> reports(String id) {
    return id == null ? null : REPORTS.get(id);
  }
}
