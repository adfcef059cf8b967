package io.hare.cli;

import io.hare.yarn.app.YarnApps;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException;
import org.apache.hadoop.yarn.security.client.RMDelegationTokenIdentifier;
import org.apache.hadoop.yarn.util.Records;

/**
 * An in-memory ResourceManager for the client commands: hands out application ids, keeps the
 * submitted contexts, and answers reports from a per-application script of (state, final status,
 * progress) steps, one step per poll, the last one repeated.
 */
final class FakeYarnApps implements YarnApps {

  record Step(YarnApplicationState state, FinalApplicationStatus status, float progress,
      String diagnostics) {}

  final Map<ApplicationId, ApplicationSubmissionContext> submitted = new HashMap<>();
  final Map<ApplicationId, Deque<Step>> scripts = new HashMap<>();
  final List<ApplicationId> killed = new ArrayList<>();
  Resource max = Resource.newInstance(8192, 8, Map.of(ResourceInformation.GPU_URI, 1L));
  int polls;
  private int next = 1;

  @Override
  public NewApp create() {
    return new NewApp(ApplicationId.newInstance(1700000000000L, next++), max);
  }

  @Override
  public void submit(ApplicationSubmissionContext context) {
    submitted.put(context.getApplicationId(), context);
    scripts.putIfAbsent(context.getApplicationId(), new ArrayDeque<>(List.of(
        new Step(YarnApplicationState.ACCEPTED, FinalApplicationStatus.UNDEFINED, 0, ""))));
  }

  /** Adds reports to {@code id}'s script. */
  void script(ApplicationId id, Step... steps) {
    scripts.computeIfAbsent(id, k -> new ArrayDeque<>()).addAll(List.of(steps));
  }

  @Override
  public ApplicationReport report(ApplicationId id) throws ApplicationNotFoundException {
    Deque<Step> s = scripts.get(id);
    if (s == null) {
      throw new ApplicationNotFoundException("Application with id '" + id + "' doesn't exist");
    }
    polls++;
    Step step = s.size() > 1 ? s.poll() : s.peek();
    ApplicationReport r = Records.newRecord(ApplicationReport.class);
    r.setApplicationId(id);
    r.setYarnApplicationState(step.state());
    r.setFinalApplicationStatus(step.status());
    r.setProgress(step.progress());
    r.setDiagnostics(step.diagnostics());
    ApplicationSubmissionContext c = submitted.get(id);
    r.setName(c == null ? "other" : c.getApplicationName());
    r.setQueue(c == null ? "default" : c.getQueue());
    r.setUser("alice");
    Set<String> tags = c == null ? Set.of() : new LinkedHashSet<>(c.getApplicationTags());
    r.setApplicationTags(tags);
    return r;
  }

  @Override
  public void kill(ApplicationId id) throws ApplicationNotFoundException {
    report(id);
    killed.add(id);
  }

  @Override
  public Token<? extends TokenIdentifier> rmDelegationToken(String renewer) {
    // what a secure RM hands out, as far as the client looks: a token of the RM's kind
    return new Token<>(new byte[0], new byte[0], RMDelegationTokenIdentifier.KIND_NAME,
        new Text("rm:8032"));
  }

  @Override
  public void close() {}
}
