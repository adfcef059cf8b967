package io.hare.demo;

import io.hare.embedded.TaskEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;

/**
 * am-failure: the ApplicationMaster's process is killed (SIGKILL, as a crash) while the tasks of
 * a round after its first run, so that a checkpoint exists and a round is in flight. YARN fails
 * the attempt, kills its task containers (Hare's AM does not ask YARN to keep them: a new
 * attempt cannot re-adopt a running task, so the round's tasks simply run again, and the example
 * job's tasks are deterministic) and starts a new attempt, which resumes after the last
 * checkpointed round. Needs {@code am.max-attempts} >= 2.
 */
final class AmFailure implements ActiveFault {

  private final Set<String> spared;
  private ApplicationAttemptId killed;

  /** @param spared names of jobs not to pick (those meant to fail anyway) */
  AmFailure(Set<String> spared) {
    this.spared = spared;
  }

  @Override
  public Fault kind() {
    return Fault.AM_FAILURE;
  }

  @Override
  public String moment() {
    return "a job with at least 2 rounds running a task of a round after a checkpointed one";
  }

  @Override
  public boolean due(RunView run) throws Exception {
    return target(run).isPresent();
  }

  private Optional<DemoJob> target(RunView run) throws Exception {
    for (DemoJob j : run.submitted().keySet()) {
      if (spared.contains(j.name()) || j.rounds() < 2 || run.ended(j)) {
        continue;
      }
      RMAppAttempt attempt = run.app(j).getCurrentAppAttempt();
      if (attempt == null || attempt.getAppAttemptId().getAttemptId() != 1
          || attempt.getAppAttemptState() != RMAppAttemptState.RUNNING) {
        continue;
      }
      int synced = ActiveFault.roundsSynced(run.events(j));
      int round = synced;
      if (synced >= 1 && synced < j.rounds()
          && run.running(j).stream().anyMatch(a -> a.round() == round)) {
        return Optional.of(j);
      }
    }
    return Optional.empty();
  }

  @Override
  public Injected inject(RunView run) throws Exception {
    Optional<DemoJob> t = target(run);
    if (t.isEmpty()) {
      return null;
    }
    DemoJob j = t.get();
    RMAppAttempt attempt = run.app(j).getCurrentAppAttempt();
    ContainerId am = attempt.getMasterContainer().getId();
    int synced = ActiveFault.roundsSynced(run.events(j));
    List<TaskEvents.Attempt> tasks = run.running(j);
    Optional<String> host = run.faults().killContainer(am);
    if (host.isEmpty()) {
      return null;
    }
    long at = System.currentTimeMillis();
    killed = attempt.getAppAttemptId();
    List<String> containers = new ArrayList<>();
    containers.add(am.toString());
    tasks.forEach(a -> containers.add(a.containerId()));
    return new Injected(kind().label(), at, "killed the ApplicationMaster of " + j.name() + " ("
        + killed + ", container " + am + " on " + host.get() + ") with " + synced + " of "
        + j.rounds() + " rounds checkpointed, during round " + synced + " ("
        + (tasks.isEmpty() ? "between two of its tasks" : "running " + tasks.stream()
            .map(ActiveFault::describe).collect(Collectors.joining(", ")))
        + "); YARN kills the attempt's task containers and starts attempt "
        + (killed.getAttemptId() + 1) + ", which resumes at round " + synced, containers);
  }

  @Override
  public boolean settled(RunView run) {
    for (Map.Entry<DemoJob, ApplicationId> e : run.submitted().entrySet()) {
      if (!e.getValue().equals(killed.getApplicationId())) {
        continue;
      }
      RMApp app = run.app(e.getKey());
      RMAppAttempt now = app.getCurrentAppAttempt();
      return run.ended(e.getKey()) || (now != null
          && now.getAppAttemptId().getAttemptId() > killed.getAttemptId()
          && now.getAppAttemptState() == RMAppAttemptState.RUNNING);
    }
    return true;
  }
}
