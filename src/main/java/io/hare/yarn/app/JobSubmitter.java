package io.hare.yarn.app;

import io.hare.core.BadInputException;
import io.hare.core.TaskContract;
import io.hare.yarn.JobTags;
import io.hare.yarn.app.tokens.TokenRefreshSpec;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.util.Records;
import org.apache.hadoop.yarn.util.resource.ResourceUtils;

/**
 * Submits a validated job: checks the AM's keytab if it has one
 * ({@link JobCredentials#checkKeytab}), gets an application id, checks the asks against the cluster's
 * largest container, stages the Hare jar and picocli once per user ({@link SharedJars}) and the
 * spec and the local files and archives in the job's work directory
 * ({@code staging-dir/APPLICATION_ID} on the default file system, owner-only:
 * {@link #WORK_DIR_PERMISSION}, files {@link #STAGED_FILE_PERMISSION}), and submits an
 * AM container that runs {@link HareApplicationMaster} with the spec localized as
 * {@value HareApplicationMaster#SPEC_FILE} and {@code HARE_WORK_DIR} in its environment; a keytab is staged
 * there too (0600) and localized into the AM's container only, never named in an environment
 * or the launch command. The
 * application carries the {@link JobTags} the scheduler reads.
 *
 * @see YarnApps the port to the ResourceManager
 */
public final class JobSubmitter {

  public static final String APPLICATION_TYPE = "HARE";
  /** The Hare jar's name in the work directory and in the AM and task containers. */
  public static final String JAR = "hare-yarn.jar";
  /**
   * The job's work directory: its owner only (0700). On a secure cluster the
   * LinuxContainerExecutor runs the AM and the tasks as the submitting user, so they read and
   * write it and other users' tasks cannot.
   */
  public static final FsPermission WORK_DIR_PERMISSION = new FsPermission((short) 0700);
  /** What the client stages (jar, spec, files, archives): owner read and write only (0600). */
  public static final FsPermission STAGED_FILE_PERMISSION = new FsPermission((short) 0600);

  private final YarnApps apps;
  private final Configuration conf;
  private final JobCredentials credentials;

  /** The current user's tokens ({@link JobCredentials#ofCurrentUser}) go with each job. */
  public JobSubmitter(YarnApps apps, Configuration conf) {
    this(apps, conf, null);
  }

  /** @param credentials the job's tokens; null for the current user's */
  public JobSubmitter(YarnApps apps, Configuration conf, JobCredentials credentials) {
    this.apps = apps;
    this.conf = conf;
    this.credentials = credentials;
  }

  /** The job's work directory: its staging directory and application id, qualified. */
  public Path workDir(HareJobSpec spec, ApplicationId id) throws IOException {
    return FileSystem.get(conf).makeQualified(new Path(spec.stagingDir(), id.toString()));
  }

  /**
   * @throws BadInputException the asks exceed the cluster's largest container, or the Hare jar
   *     cannot be found
   */
  public ApplicationId submit(HareJobSpec spec) throws BadInputException, IOException,
      YarnException {
    String jar = jar(spec);
    if (spec.files().stream().map(JobSpecValidator::fileName).anyMatch(JAR::equals)) {
      throw new BadInputException(AppKeys.FILES + ": " + JAR + " is the Hare jar's name in the"
          + " containers; rename that file (or set " + AppKeys.AM_JAR + " to it if it is the"
          + " Hare jar)");
    }
    if (spec.files().stream().map(JobSpecValidator::fileName)
        .anyMatch(TokenRefreshSpec.KEYTAB_LINK::equals)) {
      throw new BadInputException(AppKeys.FILES + ": " + TokenRefreshSpec.KEYTAB_LINK + " is the"
          + " name of the AM's keytab in its container; rename that file");
    }
    JobCredentials creds = credentials != null ? credentials
        : JobCredentials.ofCurrentUser(conf);
    creds.checkKeytab(spec.tokenRefresh()); // before anything is staged
    YarnApps.NewApp app = apps.create();
    checkFits(spec, app.maxContainer());
    FileSystem fs = FileSystem.get(conf);
    Path work = workDir(spec, app.id());
    // owner-only whatever the umask: other users' tasks must not read or change this job's
    // files (the static mkdirs sets the permission after creating, so the umask cannot widen it)
    FileSystem.mkdirs(fs, work, WORK_DIR_PERMISSION);
    Path staging = new Path(spec.stagingDir());
    Path sharedJar = SharedJars.stage(fs, staging, Paths.get(jar).toAbsolutePath(), JAR);
    List<String> files = new ArrayList<>();
    for (String f : spec.files()) {
      files.add(stage(fs, work, f));
    }
    // the example job's commands need picocli, which no cluster classpath has
    Optional<java.nio.file.Path> dep = ContainerClasspath.dependencyJar(Paths.get(jar));
    if (dep.isPresent() && spec.files().stream().map(JobSpecValidator::fileName)
        .noneMatch(dep.get().getFileName().toString()::equals)) {
      files.add(SharedJars.stage(fs, staging, dep.get(), dep.get().getFileName().toString())
          .toString());
    }
    List<String> archives = new ArrayList<>();
    for (String a : spec.archives()) {
      archives.add(stage(fs, work, a));
    }
    // the AM localizes the staged files, the Hare jar first, for its tasks; so the staged spec
    // names no jar of its own
    List<String> withJar = new ArrayList<>(List.of(sharedJar.toString()));
    withJar.addAll(files);
    HareJobSpec staged = spec.withResources("", withJar, archives);
    Path keytab = null;
    if (spec.tokenRefresh().enabled()) {
      // the AM finds it under its link name in its working directory; a later attempt too, so it
      // stays staged until the job ends (HareApplicationMaster deletes it)
      keytab = new Path(work, TokenRefreshSpec.KEYTAB_LINK);
      copy(fs, new Path(Paths.get(spec.tokenRefresh().keytab()).toAbsolutePath().toUri()),
          keytab);
      staged = staged.withTokenRefresh(
          spec.tokenRefresh().withKeytab(TokenRefreshSpec.KEYTAB_LINK));
    }
    Path specFile = new Path(work, HareApplicationMaster.SPEC_FILE);
    try (OutputStream out = fs.create(specFile, true)) {
      staged.toConfiguration().writeXml(out);
    }
    fs.setPermission(specFile, STAGED_FILE_PERMISSION);
    Map<String, LocalResource> resources = new LinkedHashMap<>();
    resources.put(JAR, LocalResources.of(conf, sharedJar, LocalResourceType.FILE));
    resources.put(HareApplicationMaster.SPEC_FILE,
        LocalResources.of(conf, specFile, LocalResourceType.FILE));
    resources.putAll(LocalResources.of(conf, files, archives));
    if (keytab != null) {
      // the AM's alone: its tasks' resources come from the spec's files, which do not name it
      resources.put(TokenRefreshSpec.KEYTAB_LINK, LocalResources.of(conf, keytab,
          LocalResourceType.FILE));
    }
    ByteBuffer tokens = creds.forAm(apps, JobCredentials.fileSystemsOf(staged, work));
    apps.submit(context(staged, app.id(), work, resources, tokens));
    return app.id();
  }

  private ApplicationSubmissionContext context(HareJobSpec spec, ApplicationId id, Path work,
      Map<String, LocalResource> resources, ByteBuffer tokens) {
    Map<String, String> env = new LinkedHashMap<>(spec.env());
    env.put(TaskContract.WORK_DIR, work.toString());
    env.put(Environment.CLASSPATH.name(), ContainerClasspath.of(conf));
    String log = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    String command = Environment.JAVA_HOME.$$() + "/bin/java -Xmx"
        + Math.max(128, spec.amMemoryMb() * 3 / 4) + "m "
        + (spec.amJavaOpts().isEmpty() ? "" : spec.amJavaOpts() + " ")
        + HareApplicationMaster.class.getName()
        + " 1>" + log + "/AppMaster.stdout 2>" + log + "/AppMaster.stderr";
    ContainerLaunchContext am = ContainerLaunchContext.newInstance(resources, env,
        List.of(command), null, tokens, null);
    ApplicationSubmissionContext ctx = Records.newRecord(ApplicationSubmissionContext.class);
    ctx.setApplicationId(id);
    ctx.setApplicationName(spec.name());
    ctx.setApplicationType(APPLICATION_TYPE);
    ctx.setQueue(spec.queue());
    ctx.setApplicationTags(JobTags.write(spec.tags()));
    ctx.setMaxAppAttempts(spec.amMaxAttempts());
    ctx.setResource(Resource.newInstance(spec.amMemoryMb(), 1));
    ctx.setAMContainerSpec(am);
    return ctx;
  }

  private static void checkFits(HareJobSpec spec, Resource max) throws BadInputException {
    List<String> problems = new ArrayList<>();
    if (spec.taskMemoryMb() > max.getMemorySize()) {
      problems.add(AppKeys.TASK_MEMORY_MB + ": " + spec.taskMemoryMb() + " is more than the "
          + "cluster's largest container, " + max.getMemorySize() + " MB");
    }
    if (spec.amMemoryMb() > max.getMemorySize()) {
      problems.add(AppKeys.AM_MEMORY_MB + ": " + spec.amMemoryMb() + " is more than the "
          + "cluster's largest container, " + max.getMemorySize() + " MB");
    }
    if (spec.taskVcores() > max.getVirtualCores()) {
      problems.add(AppKeys.TASK_VCORES + ": " + spec.taskVcores() + " is more than the "
          + "cluster's largest container, " + max.getVirtualCores() + " vcores");
    }
    long gpus = 0;
    for (ResourceInformation ri : max.getResources()) {
      if (ResourceInformation.GPU_URI.equals(ri.getName())) {
        gpus = ri.getValue();
      }
    }
    // a client without resource-types.xml on its classpath cannot see GPUs in the answer
    boolean clientKnowsGpus = ResourceUtils.getResourceTypes()
        .containsKey(ResourceInformation.GPU_URI);
    if (clientKnowsGpus && gpus < spec.taskGpus()) {
      problems.add(AppKeys.TASK_GPUS + ": the cluster grants containers of at most " + gpus
          + " " + ResourceInformation.GPU_URI + " (is the Hare scheduler running, with "
          + ResourceInformation.GPU_URI + " in resource-types.xml?)");
    }
    if (!problems.isEmpty()) {
      throw new BadInputException(String.join(System.lineSeparator(), problems));
    }
  }

  /** The jar the AM runs from: the spec's, or the one this class was loaded from. */
  private static String jar(HareJobSpec spec) throws BadInputException {
    if (!spec.amJar().isEmpty()) {
      return spec.amJar();
    }
    String own;
    try {
      own = Paths.get(JobSubmitter.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI()).toString();
    } catch (URISyntaxException | RuntimeException e) {
      own = "(unknown)";
    }
    if (!own.endsWith(".jar")) {
      throw new BadInputException(AppKeys.AM_JAR + ": the hare client does not run from a jar ("
          + own + "); set " + AppKeys.AM_JAR + " to the Hare jar");
    }
    return own;
  }

  /** Copies a local file into the work directory; other URIs are used where they are. */
  private String stage(FileSystem fs, Path work, String entry) throws IOException {
    URI uri;
    try {
      uri = new URI(entry);
    } catch (URISyntaxException e) {
      uri = Paths.get(entry).toUri();
    }
    if (uri.getScheme() != null && !"file".equals(uri.getScheme())) {
      Path p = new Path(uri);
      return p.getFileSystem(conf).makeQualified(p).toString();
    }
    String local = uri.getScheme() == null ? entry : uri.getPath();
    Path target = new Path(work, JobSpecValidator.fileName(local));
    copy(fs, new Path(Paths.get(local).toAbsolutePath().toUri()), target);
    return target.toString();
  }

  /** Copies a local file into the work directory, readable by its owner only. */
  private static void copy(FileSystem fs, Path local, Path target) throws IOException {
    fs.copyFromLocalFile(false, true, local, target);
    fs.setPermission(target, STAGED_FILE_PERMISSION);
  }
}
