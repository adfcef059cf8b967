package io.hare.yarn.scheduler.web;

import io.hare.core.plan.Forecast;
import io.hare.yarn.scheduler.SchedulerReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers two paths of the ResourceManager's web server for the Hare scheduler and lets every
 * other request through:
 * <ul>
 *   <li>{@value #PAGE_PATH}: the scheduler page (HTML, {@link SchedulerHtml}), in place of YARN's
 *       FIFO page, which fails with HTTP 500 on Hadoop 3.4 and 3.5;
 *   <li>{@value #REST_PATH}: the same as JSON ({@link SchedulerJson}). YARN's own
 *       {@code /ws/v1/cluster/scheduler} keeps answering with its FIFO view of the one queue.
 * </ul>
 * Without a registered Hare scheduler (it stopped; or not started, as on a standby RM, where
 * YARN then sends the request on to the active RM; or the filter was listed for another
 * scheduler) it lets everything through. Read-only: GET and HEAD, and OPTIONS, which answers
 * what is allowed.
 */
public final class HareWebFilter implements Filter {

  static final String PAGE_PATH = "/cluster/scheduler";
  public static final String REST_PATH = "/ws/v1/hare/scheduler";

  private static final Logger LOG = LoggerFactory.getLogger(HareWebFilter.class);
  private static final String ALLOWED = "GET, HEAD, OPTIONS";

  private String instance;

  @Override
  public void init(FilterConfig config) {
    instance = config.getInitParameter(HareWeb.INSTANCE_KEY);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest req
        && response instanceof HttpServletResponse res) {
      String path = path(req);
      boolean page = PAGE_PATH.equals(path);
      boolean rest = REST_PATH.equals(path);
      Supplier<SchedulerReport> reports = HareWeb.reports(instance);
      if ((page || rest) && reports != null) {
        if ("GET".equals(req.getMethod()) || "HEAD".equals(req.getMethod())) {
          answer(reports.get().visibleTo(req.getRemoteUser()), page, res);
          return;
        }
        if ("OPTIONS".equals(req.getMethod())) {
          // Hadoop's web clients (AuthenticatedURL) authenticate with an OPTIONS request to
          // the URL they then read, and take only 200 as success
          res.setStatus(HttpServletResponse.SC_OK);
          res.setHeader("Allow", ALLOWED);
          res.setContentLength(0);
          return;
        }
      }
    }
    chain.doFilter(request, response);
  }

  private static String path(HttpServletRequest req) {
    String uri = req.getRequestURI();
    String context = req.getContextPath();
    String p = context != null && uri.startsWith(context) ? uri.substring(context.length()) : uri;
    return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
  }

  private static void answer(SchedulerReport report, boolean page, HttpServletResponse res)
      throws IOException {
    Optional<Forecast> forecast;
    try {
      forecast = report.forecast(); // outside the scheduler's lock
    } catch (RuntimeException e) {
      LOG.warn("completion forecast failed; the page shows none", e);
      forecast = Optional.empty();
    }
    byte[] body = (page ? SchedulerHtml.render(report, forecast)
        : SchedulerJson.render(report, forecast)).getBytes(StandardCharsets.UTF_8);
    res.setStatus(HttpServletResponse.SC_OK);
    res.setContentType(page ? "text/html; charset=utf-8" : "application/json; charset=utf-8");
    res.setHeader("Cache-Control", "no-cache");
    res.setContentLength(body.length);
    res.getOutputStream().write(body);
  }

  @Override
  public void destroy() {
    // nothing held
  }
}
