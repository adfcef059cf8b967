package io.hare.yarn.scheduler.web;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.FilterContainer;
import org.apache.hadoop.http.FilterInitializer;

/**
 * Adds {@link HareWebFilter} to the ResourceManager's web server, telling it which scheduler to
 * show ({@link HareWeb}). Listed in {@code hadoop.http.filter.initializers}, after the
 * authentication filters, so requests reach it authenticated.
 */
public final class HareWebFilterInitializer extends FilterInitializer {

  @Override
  public void initFilter(FilterContainer container, Configuration conf) {
    String id = conf.get(HareWeb.INSTANCE_KEY);
    container.addFilter("hare-scheduler", HareWebFilter.class.getName(),
        id == null ? Map.of() : Map.of(HareWeb.INSTANCE_KEY, id));
  }
}
