package io.hare.core.profile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.hare.core.BadInputException;
import io.hare.core.GpuType;
import io.hare.core.TaskTimes;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** PROFILES.csv: valid files, the round trip, and each malformed input named by line and field. */
public class ProfileCsvTest {

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static final String HEADER = "model,gpu_type,compute_ms,sync_ms\n";

  private static ProfileTable parse(String text) throws Exception {
    return ProfileCsv.read(new StringReader(text), "P.csv");
  }

  /** Parsing {@code text} fails with a message that starts with P.csv:LINE: field 'FIELD'. */
  private static String assertBad(String text, long line, String field, String... parts)
      throws Exception {
    try {
      parse(text);
      fail("accepted: " + text);
      return null;
    } catch (BadInputException e) {
      String m = e.getMessage();
      assertTrue(m, m.startsWith("P.csv:" + line + ": field '" + field + "': "));
      for (String p : parts) {
        assertTrue(m + " should mention " + p, m.contains(p));
      }
      return m;
    }
  }

  @Test(timeout = 60_000)
  public void readsRowsInAnyColumnOrderWithCommentsAndBlankLines() throws Exception {
    ProfileTable t = parse("sync_ms,model,compute_ms,gpu_type,note\n"
        + "# measured on the testbed\n"
        + "20,cnn,100,V100,fast\n"
        + "\n"
        + " 0 , cnn , 700.5 , k80 ,\n");
    assertEquals(new TaskTimes(100, 20), t.times("cnn", GpuType.of("v100")));
    assertEquals(new TaskTimes(700.5, 0), t.times("cnn", GpuType.of("k80")));
    assertNull("no row: cannot run there", t.times("cnn", GpuType.of("t4")));
  }

  @Test(timeout = 60_000)
  public void roundTripKeepsEveryEntry() throws Exception {
    ProfileTable t = ProfileTable.builder()
        .put("cnn", "v100", 100, 20).put("cnn", "k80", 700.25, 0)
        .put("model, with comma", "t4", 1e-3, 1234567.5).build();
    Path f = tmp.getRoot().toPath().resolve("PROFILES.csv");
    ProfileCsv.write(t, f);
    ProfileTable back = ProfileCsv.read(f);
    assertEquals(List.copyOf(t.models()), List.copyOf(back.models()));
    for (String m : t.models()) {
      assertEquals(m, t.forModel(m), back.forModel(m));
    }
    assertTrue(Files.readString(f).startsWith(HEADER));
  }

  @Test(timeout = 60_000)
  public void writtenNumbersAreShort() throws Exception {
    StringWriter w = new StringWriter();
    ProfileCsv.write(ProfileTable.builder().put("m", "v100", 100, 20.5).build(), w);
    assertEquals(HEADER + "m,v100,100,20.5\n", w.toString());
  }

  @Test(timeout = 60_000)
  public void missingColumnNamesTheHeaderLineAndTheColumn() throws Exception {
    assertBad("model,gpu_type,compute_ms\nm,v100,1\n", 1, "sync_ms",
        "missing column", "model,gpu_type,compute_ms,sync_ms", "found: model,gpu_type,compute_ms");
  }

  @Test(timeout = 60_000)
  public void emptyFileIsAMissingColumn() throws Exception {
    assertBad("", 1, "model", "missing column", "found: nothing");
  }

  @Test(timeout = 60_000)
  public void computeNotANumber() throws Exception {
    assertBad(HEADER + "m,v100,1,0\nm,k80,fast,0\n", 3, "compute_ms", "not a number", "'fast'",
        "> 0");
  }

  @Test(timeout = 60_000)
  public void computeZeroOrNegative() throws Exception {
    assertBad(HEADER + "m,v100,0,0\n", 2, "compute_ms", "a number > 0 (milliseconds)", "'0'");
    assertBad(HEADER + "m,v100,-5,0\n", 2, "compute_ms", "'-5'");
  }

  @Test(timeout = 60_000)
  public void syncNegative() throws Exception {
    assertBad(HEADER + "m,v100,10,-1\n", 2, "sync_ms", "a number >= 0 (milliseconds)", "'-1'");
  }

  @Test(timeout = 60_000)
  public void nonFiniteNumbers() throws Exception {
    assertBad(HEADER + "m,v100,Infinity,0\n", 2, "compute_ms", "not finite");
    assertBad(HEADER + "m,v100,1,NaN\n", 2, "sync_ms", "not finite");
  }

  @Test(timeout = 60_000)
  public void timesAboveAYear() throws Exception {
    assertBad(HEADER + "m,v100,1e300,0\n", 2, "compute_ms", "at most 31536000000", "'1e300'");
    assertBad(HEADER + "m,v100,10,31536000001\n", 2, "sync_ms", "at most 31536000000");
  }

  @Test(timeout = 60_000)
  public void binaryGarbageIsNotUtf8Text() throws Exception {
    Path f = tmp.getRoot().toPath().resolve("binary.csv");
    Files.write(f, new byte[] {(byte) 0xff, (byte) 0xfe, 0, (byte) 0x80, '\n'});
    try {
      ProfileCsv.read(f);
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(f + ":1: not UTF-8 text"));
    }
    // valid rows, then a malformed byte sequence in the third
    Files.write(f, (HEADER + "m,v100,10,1\nm,t4,").getBytes(StandardCharsets.UTF_8));
    Files.write(f, new byte[] {(byte) 0xc3, 0x28, '\n'}, StandardOpenOption.APPEND);
    try {
      ProfileCsv.read(f);
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("not UTF-8 text"));
    }
  }

  @Test(timeout = 60_000)
  public void badGpuTypeName() throws Exception {
    assertBad(HEADER + "m,v 100,10,1\n", 2, "gpu_type", "[a-z0-9_-]", "'v 100'");
  }

  @Test(timeout = 60_000)
  public void duplicateModelAndTypeNamesBothLines() throws Exception {
    assertBad(HEADER + "m,v100,10,1\nm,t4,20,1\n# note\nm,V100,11,1\n", 5, "gpu_type",
        "model 'm' on type v100", "already given on line 2");
  }

  @Test(timeout = 60_000)
  public void everyBadFieldOfEveryRowIsListedAtOnce() throws Exception {
    String m = assertBad(HEADER + "m,v100,10,1\n"
        + "m,t4,fast,-1\n" // two bad fields in one row
        + "m,k 80,20,1\n"
        + "m,V100,11,1\n", // a duplicate of line 2
        3, "compute_ms", "'fast'");
    assertEquals(List.of(
        "P.csv:3: field 'compute_ms'", "P.csv:3: field 'sync_ms'", "P.csv:4: field 'gpu_type'",
        "P.csv:5: field 'gpu_type'"), m.lines().map(l -> l.substring(0, l.indexOf("':") + 1))
        .toList());
    assertTrue(m, m.lines().toList().get(3).contains("already given on line 2"));
  }

  @Test(timeout = 60_000)
  public void aFileWrongThroughoutListsTheFirstProblemsAndCountsTheRest() throws Exception {
    StringBuilder text = new StringBuilder(HEADER);
    int rows = ProfileCsv.MAX_LISTED + 7;
    for (int i = 0; i < rows; i++) {
      text.append("m").append(i).append(",v100,slow,0\n");
    }
    String m = assertBad(text.toString(), 2, "compute_ms", "'slow'");
    List<String> lines = m.lines().toList();
    assertEquals(ProfileCsv.MAX_LISTED + 1, lines.size());
    assertEquals("P.csv: 7 more problems", lines.get(lines.size() - 1));
  }

  @Test(timeout = 60_000)
  public void aBrokenQuoteEndsTheReadAfterTheProblemsBeforeIt() throws Exception {
    String m = assertBad(HEADER + "m,v100,0,1\n\"m,t4,10,1\n", 2, "compute_ms");
    assertEquals(m, 2, m.lines().count());
    assertTrue(m, m.lines().toList().get(1).contains("not valid CSV"));
  }

  @Test(timeout = 60_000)
  public void shortRowHasMissingValue() throws Exception {
    assertBad(HEADER + "m,v100,10\n", 2, "sync_ms", "missing value");
  }

  @Test(timeout = 60_000)
  public void blankModel() throws Exception {
    assertBad(HEADER + ",v100,10,1\n", 2, "model", "missing value");
  }

  @Test(timeout = 60_000)
  public void brokenQuoteIsReportedWithItsFile() throws Exception {
    try {
      parse(HEADER + "m,v100,10,1\n\"m,v100,10,1\n");
      fail();
    } catch (BadInputException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("P.csv:"));
      assertTrue(e.getMessage(), e.getMessage().contains("not valid CSV"));
    }
  }

  @Test(timeout = 60_000)
  public void badHeaderIsReportedOnLineOne() throws Exception {
    for (String header : new String[] {"model,gpu_type,compute_ms,sync_ms,model\n",
        "model,gpu_type,\"compute_ms,sync_ms\n"}) {
      try {
        parse(header + "m,v100,1,1\n");
        fail(header);
      } catch (BadInputException e) {
        assertTrue(e.getMessage(), e.getMessage().startsWith("P.csv:1: bad header: "));
      }
    }
  }

  @Test(timeout = 60_000)
  public void missingFileIsBadInput() throws Exception {
    Path nowhere = tmp.getRoot().toPath().resolve("nope.csv");
    try {
      ProfileCsv.read(nowhere);
      fail();
    } catch (BadInputException e) {
      assertEquals(nowhere + ": no such file", e.getMessage());
    }
  }
}
