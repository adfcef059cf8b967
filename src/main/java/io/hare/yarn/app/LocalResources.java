package io.hare.yarn.app;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.URL;

/**
 * YARN local resources for files already on a Hadoop file system, linked under their file names
 * (archives unpacked into a directory of that name). Size and time stamp come from the file
 * system, as the NodeManager checks them. A job's own files are kept for the job only
 * (APPLICATION visibility); Hare's {@link SharedJars} per user (PRIVATE).
 */
public final class LocalResources {

  private LocalResources() {}

  public static LocalResource of(Configuration conf, Path p, LocalResourceType type)
      throws IOException {
    FileSystem fs = p.getFileSystem(conf);
    FileStatus s = fs.getFileStatus(p);
    return LocalResource.newInstance(URL.fromPath(fs.makeQualified(s.getPath())), type,
        SharedJars.visibility(p), s.getLen(), s.getModificationTime());
  }

  /** The spec's files and archives (URIs on a Hadoop file system) by link name. */
  public static Map<String, LocalResource> of(Configuration conf, List<String> files,
      List<String> archives) throws IOException {
    Map<String, LocalResource> out = new LinkedHashMap<>();
    for (String f : files) {
      Path p = new Path(f);
      out.put(p.getName(), of(conf, p, LocalResourceType.FILE));
    }
    for (String a : archives) {
      Path p = new Path(a);
      out.put(p.getName(), of(conf, p, LocalResourceType.ARCHIVE));
    }
    return out;
  }
}
