package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.PreemptionContainer;
import org.apache.hadoop.yarn.api.records.PreemptionContract;
import org.apache.hadoop.yarn.api.records.StrictPreemptionContract;
import org.apache.hadoop.yarn.api.records.impl.pb.PreemptionContractPBImpl;
import org.apache.hadoop.yarn.api.records.impl.pb.StrictPreemptionContractPBImpl;
import org.apache.hadoop.yarn.proto.YarnProtos.PreemptionContractProto;
import org.apache.hadoop.yarn.proto.YarnProtos.StrictPreemptionContractProto;
import org.apache.hadoop.yarn.util.Records;
import org.junit.Test;

/**
 * The containers the scheduler asks back (a negotiable or strict preemption contract), as the AM
 * reads them:
 * from the contract's protobuf as it comes off the wire, else through the record.
 */
public class PreemptionContractTest {

  private static final ApplicationAttemptId ATTEMPT =
      ApplicationAttemptId.newInstance(ApplicationId.newInstance(1_700_000_000_000L, 3), 1);

  private static PreemptionContainer container(long n) {
    PreemptionContainer c = Records.newRecord(PreemptionContainer.class);
    c.setId(ContainerId.newContainerId(ATTEMPT, n));
    return c;
  }

  @Test(timeout = 60_000)
  public void aContractFromTheWireNamesEachOfItsContainers() throws Exception {
    StrictPreemptionContract sent = Records.newRecord(StrictPreemptionContract.class);
    sent.setContainers(new HashSet<>(List.of(container(4), container(9))));
    StrictPreemptionContract received = new StrictPreemptionContractPBImpl(
        StrictPreemptionContractProto.parseFrom(
            ((StrictPreemptionContractPBImpl) sent).getProto().toByteArray()));

    List<ContainerId> ids = AmCallbacks.containers(received);
    assertEquals(2, ids.size());
    assertEquals(Set.of(ContainerId.newContainerId(ATTEMPT, 4),
        ContainerId.newContainerId(ATTEMPT, 9)), new HashSet<>(ids));
  }

  @Test(timeout = 60_000)
  public void aNegotiableContractFromTheWireNamesEachOfItsContainers() throws Exception {
    PreemptionContract sent = Records.newRecord(PreemptionContract.class);
    sent.setContainers(new HashSet<>(List.of(container(5), container(7))));
    sent.setResourceRequest(List.of());
    PreemptionContract received = new PreemptionContractPBImpl(PreemptionContractProto
        .parseFrom(((PreemptionContractPBImpl) sent).getProto().toByteArray()));

    assertEquals(Set.of(ContainerId.newContainerId(ATTEMPT, 5),
        ContainerId.newContainerId(ATTEMPT, 7)), new HashSet<>(AmCallbacks.containers(received)));
  }

  @Test(timeout = 60_000)
  public void aContractWithoutAProtobufIsReadThroughTheRecord() {
    Set<PreemptionContainer> asked = Set.of(container(2));
    StrictPreemptionContract plain = new StrictPreemptionContract() {
      @Override
      public Set<PreemptionContainer> getContainers() {
        return asked;
      }

      @Override
      public void setContainers(Set<PreemptionContainer> containers) {}
    };
    assertEquals(List.of(ContainerId.newContainerId(ATTEMPT, 2)), AmCallbacks.containers(plain));
    assertEquals(List.of(), AmCallbacks.containers(new StrictPreemptionContractPBImpl()));
  }
}
