package io.hare.yarn.scheduler.times;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/** The task-time store a configuration asks for. */
public final class TaskTimeStores {

  private TaskTimeStores() {}

  /**
   * {@link TaskTimeStore#NONE} for an empty URI, else a {@link FileTaskTimeStore} there.
   *
   * @param uri {@code yarn.scheduler.hare.task-times.store.uri}, validated by the settings
   */
  public static TaskTimeStore of(String uri, Configuration conf) {
    return uri.isEmpty() ? TaskTimeStore.NONE
        : new FileTaskTimeStore(URI.create(uri), conf, FileTaskTimeStore.DEFAULT_MAX_BYTES);
  }
}
