package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;

import java.net.URI;
import org.apache.hadoop.fs.Path;
import org.junit.Test;

/** What {@code HARE_WORK_DIR} tasks get for the job's work directory. */
public class TaskEnvTest {

  private static final URI LOCAL = URI.create("file:///");
  private static final URI HDFS = URI.create("hdfs://nn.example.com:8020");

  private static String forTasks(String work, URI defaultFs) {
    return TaskEnv.workDirForTasks(new Path(work), defaultFs);
  }

  @Test
  public void aLocalWorkDirectoryOnALocalDefaultFileSystemIsAPlainPath() {
    // what a POSIX program (Python's open, a shell) can read as it is
    assertEquals("/nfs/jobs/application_1_0001",
        forTasks("file:/nfs/jobs/application_1_0001", LOCAL));
    assertEquals("/nfs/my jobs/application_1_0001",
        forTasks("file:/nfs/my jobs/application_1_0001", LOCAL));
  }

  @Test
  public void aWorkDirectoryOnHdfsKeepsItsUri() {
    assertEquals("hdfs://nn.example.com:8020/user/ada/.hare/jobs/application_1_0001",
        forTasks("hdfs://nn.example.com:8020/user/ada/.hare/jobs/application_1_0001", HDFS));
    // as Hadoop writes a Path, unescaped: new Path(HARE_WORK_DIR) is the same directory
    String spaced = "hdfs://nn.example.com:8020/user/ada/my jobs/application_1_0001";
    assertEquals(spaced, forTasks(spaced, HDFS));
    assertEquals(new Path(spaced), new Path(forTasks(spaced, HDFS)));
  }

  @Test
  public void aLocalWorkDirectoryBesideAnotherDefaultFileSystemKeepsItsScheme() {
    // a plain path would name a directory of HDFS to a Hadoop client in the task
    assertEquals("file:/nfs/jobs/application_1_0001",
        forTasks("file:/nfs/jobs/application_1_0001", HDFS));
  }
}
