package io.hare.yarn;

import io.hare.core.BadInputException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a Hare job tells the scheduler at submission, carried as YARN application tags
 * {@code hare.weight=W}, {@code hare.rounds=R}, {@code hare.tasks-per-round=K} and
 * {@code hare.model=NAME}, {@code hare.standby=true} from an ApplicationMaster that takes standby
 * containers (pre-launched without their GPU, given it when it frees: the Hare AM with task
 * reuse), and {@code hare.protocol=V}, the version of the Hare AM protocol the job's AM speaks.
 * The client writes them with {@link #write}; the scheduler reads them with {@link #parse}.
 *
 * <p><b>The Hare protocol.</b> Only an AM that declared it gets Hare's own meanings of YARN's AM
 * protocol fields: a negotiable preemption contract as "give this GPU back at your task's end", a
 * container decrease to the same size as "my next task started", one to no GPU as "park it", and
 * standby containers. Every other AM gets YARN's meanings (see {@code HareScheduler#allocate}).
 * The declaration travels with the submission because YARN's AM registration carries no field
 * that the scheduler sees; the Hare client, which also launches the Hare AM, writes it. YARN lower-cases tags, so names and values are compared in lower case and
 * model names are lower case.
 *
 * <p>Every tag is optional: a job without tags has weight 1, unknown rounds and tasks per round
 * (scheduled non-clairvoyantly) and no model (a neutral default task time). Tags that do not start
 * with {@code hare.} are other tools' business and ignored.
 *
 * <p>{@link #parse} refuses, with a message naming the tag, the value and what is allowed: an
 * unknown {@code hare.*} tag, a tag given twice, a tag without {@code =value}, a value that is not
 * a number in decimal notation (so also NaN, infinities and Java forms like {@code 10d}), not
 * above 0, or above the limits below, and a model name outside
 * {@code [a-z0-9._-]{1,64}}. Weight above the admin's cap is not an error here; the scheduler
 * clamps it.
 */
public final class JobTags {

  public static final String PREFIX = "hare.";
  public static final String WEIGHT = PREFIX + "weight";
  public static final String ROUNDS = PREFIX + "rounds";
  public static final String TASKS_PER_ROUND = PREFIX + "tasks-per-round";
  public static final String MODEL = PREFIX + "model";
  public static final String STANDBY = PREFIX + "standby";
  public static final String PROTOCOL = PREFIX + "protocol";
  public static final List<String> NAMES = List.of(WEIGHT, ROUNDS, TASKS_PER_ROUND, MODEL,
      STANDBY, PROTOCOL);
  /** The Hare AM protocol version this build speaks; {@link Info#protocol} 0 means none. */
  public static final int PROTOCOL_VERSION = 1;
  /**
   * Not an application tag: the allocation tag the scheduler puts on the task containers of a
   * job that takes standbys while standbys are on; the AM parks only such containers, which the
   * scheduler then keeps as standbys ({@code ContainerAsks#reportParked}).
   */
  public static final String PARKABLE = PREFIX + "parkable";

  /** Largest weight a tag may carry at all (the admin cap is usually far lower). */
  public static final double MAX_WEIGHT = 1e6;
  public static final int MAX_ROUNDS = 100_000_000;
  public static final int MAX_TASKS_PER_ROUND = 100_000;

  private static final Pattern MODEL_NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
  /** Plain decimal notation; Java's parser would also take "10d", "0x1p4" and "Infinity". */
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

  private JobTags() {}

  /**
   * A job's declared information.
   *
   * @param weight &gt; 0, as declared (not yet clamped)
   * @param rounds total rounds R, if declared
   * @param tasksPerRound k, if declared
   * @param model profile name, lower case, if declared
   * @param standby whether the job's AM takes standby containers (see the class comment)
   * @param protocol the Hare AM protocol version the job's AM speaks, 0 for none
   */
  public record Info(double weight, OptionalInt rounds, OptionalInt tasksPerRound,
      Optional<String> model, boolean standby, int protocol) {

    /** What an untagged job gets. */
    public static final Info NONE = new Info(1.0, OptionalInt.empty(), OptionalInt.empty(),
        Optional.empty());

    /** A job whose AM takes no standby containers and speaks no Hare protocol. */
    public Info(double weight, OptionalInt rounds, OptionalInt tasksPerRound,
        Optional<String> model) {
      this(weight, rounds, tasksPerRound, model, false, 0);
    }

    /** Whether the job's AM declared the Hare protocol (see the class comment). */
    public boolean speaksHare() {
      return protocol > 0;
    }
  }

  /** Tags for {@code info}, in a fixed order; what the Hare client sets on its submission. */
  public static Set<String> write(Info info) {
    Set<String> tags = new LinkedHashSet<>();
    tags.add(WEIGHT + "=" + info.weight());
    info.rounds().ifPresent(r -> tags.add(ROUNDS + "=" + r));
    info.tasksPerRound().ifPresent(k -> tags.add(TASKS_PER_ROUND + "=" + k));
    info.model().ifPresent(m -> tags.add(MODEL + "=" + m.toLowerCase(Locale.ROOT)));
    if (info.standby()) {
      tags.add(STANDBY + "=true");
    }
    if (info.speaksHare()) {
      tags.add(PROTOCOL + "=" + info.protocol());
    }
    return tags;
  }

  /**
   * Reads the {@code hare.*} tags among {@code tags} (null: none).
   *
   * @throws BadInputException naming the first bad tag, its value and what is allowed
   */
  public static Info parse(Collection<String> tags) throws BadInputException {
    Map<String, String> values = new HashMap<>();
    if (tags != null) {
      for (String raw : tags) {
        String tag = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
        if (!tag.startsWith(PREFIX)) {
          continue;
        }
        int eq = tag.indexOf('=');
        String name = eq < 0 ? tag : tag.substring(0, eq).trim();
        if (!NAMES.contains(name)) {
          throw new BadInputException("application tag '" + raw + "': unknown Hare tag '" + name
              + "'; known: " + String.join(", ", NAMES) + " (each as name=value)");
        }
        if (eq < 0) {
          throw new BadInputException("application tag '" + raw + "': " + name
              + " needs a value, as " + name + "=VALUE");
        }
        String value = tag.substring(eq + 1).trim();
        String earlier = values.put(name, value);
        if (earlier != null) {
          throw new BadInputException("application tag " + name + " is given twice ('" + earlier
              + "' and '" + value + "'); give it once");
        }
      }
    }
    double weight = values.containsKey(WEIGHT) ? weight(values.get(WEIGHT)) : 1.0;
    OptionalInt rounds = values.containsKey(ROUNDS)
        ? OptionalInt.of(count(ROUNDS, values.get(ROUNDS), MAX_ROUNDS)) : OptionalInt.empty();
    OptionalInt k = values.containsKey(TASKS_PER_ROUND)
        ? OptionalInt.of(count(TASKS_PER_ROUND, values.get(TASKS_PER_ROUND), MAX_TASKS_PER_ROUND))
        : OptionalInt.empty();
    Optional<String> model = Optional.empty();
    if (values.containsKey(MODEL)) {
      String m = values.get(MODEL);
      if (!MODEL_NAME.matcher(m).matches()) {
        throw new BadInputException(bad(MODEL, m, "a model name of " + MODEL_NAME_RULE));
      }
      model = Optional.of(m);
    }
    boolean standby = false;
    if (values.containsKey(STANDBY)) {
      String v = values.get(STANDBY);
      if (!v.equals("true") && !v.equals("false")) {
        throw new BadInputException(bad(STANDBY, v, "true or false"));
      }
      standby = v.equals("true");
    }
    int protocol = values.containsKey(PROTOCOL)
        ? count(PROTOCOL, values.get(PROTOCOL), PROTOCOL_VERSION) : 0;
    return new Info(weight, rounds, k, model, standby, protocol);
  }

  private static double weight(String v) throws BadInputException {
    String allowed = "a number > 0 and <= " + (long) MAX_WEIGHT;
    double w;
    try {
      w = parseDecimal(v);
    } catch (NumberFormatException e) {
      throw new BadInputException(bad(WEIGHT, v, allowed));
    }
    if (!(w > 0) || w > MAX_WEIGHT) {
      throw new BadInputException(bad(WEIGHT, v, allowed));
    }
    return w;
  }

  /**
   * A number in plain decimal notation ({@code 2}, {@code 0.5}, {@code 1e3}), as users write
   * weights; Java-only forms such as {@code 10d}, {@code 0x1p4}, {@code NaN} or
   * {@code Infinity} are refused, so a value means the same to every reader of the tag.
   *
   * @throws NumberFormatException for anything else
   */
  public static double parseDecimal(String v) {
    if (v == null || !DECIMAL.matcher(v).matches()) {
      throw new NumberFormatException("not a decimal number: '" + v + "'");
    }
    return Double.parseDouble(v);
  }

  /** Whether {@code name} can be a model name of a {@code hare.model} tag (lower case). */
  public static boolean isModelName(String name) {
    return name != null && MODEL_NAME.matcher(name).matches();
  }

  /** What {@link #isModelName} allows, for messages. */
  public static final String MODEL_NAME_RULE = "1-64 characters a-z, 0-9, '.', '_' or '-',"
      + " starting with a letter or digit";

  private static int count(String name, String v, int max) throws BadInputException {
    String allowed = "a whole number from 1 to " + max;
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new BadInputException(bad(name, v, allowed));
    }
    if (n < 1 || n > max) {
      throw new BadInputException(bad(name, v, allowed));
    }
    return (int) n;
  }

  private static String bad(String name, String value, String allowed) {
    return "application tag " + name + "=" + value + ": '" + value + "' is not allowed; " + name
        + " must be " + allowed;
  }
}
