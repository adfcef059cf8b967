package io.hare.cli;

import io.hare.core.BadInputException;
import io.hare.core.SchedulerKeys;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The queue keys of {@code hare simulate --queues FILE}: the file the ResourceManager reads (a
 * Hadoop configuration XML such as {@code yarn-site.xml}, {@code <property><name>...</name>
 * <value>...</value></property>}) or a Java properties file, told apart by a first non-blank
 * character {@code <}. Only {@code yarn.scheduler.hare.queues} and
 * {@code yarn.scheduler.hare.queue.*} are taken, so a whole {@code yarn-site.xml} can be given;
 * every other key is ignored. The JDK's parser alone, without Hadoop: no {@code <xi:include>} and
 * no variable expansion.
 */
final class QueuesFile {

  private QueuesFile() {}

  /** The file's queue keys, in file order. */
  static Map<String, String> read(Path file) throws BadInputException {
    String what = "--queues " + file;
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new BadInputException(what + ": " + (Files.exists(file) ? "not a readable file"
          : "no such file"));
    }
    Map<String, String> all = new LinkedHashMap<>();
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      if (text.stripLeading().startsWith("<")) {
        readXml(file, all);
      } else {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          p.load(r);
        }
        p.stringPropertyNames().stream().sorted().forEach(k -> all.put(k, p.getProperty(k)));
      }
    } catch (IOException | IllegalArgumentException e) {
      throw new BadInputException(what + ": cannot read it: " + e.getMessage(), e);
    }
    Map<String, String> out = new LinkedHashMap<>();
    all.forEach((k, v) -> {
      if (k.equals(SchedulerKeys.QUEUES) || k.startsWith(SchedulerKeys.QUEUE_PREFIX)) {
        out.put(k, v);
      }
    });
    return out;
  }

  private static void readXml(Path file, Map<String, String> out)
      throws IOException, BadInputException {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      NodeList props;
      try (InputStream in = Files.newInputStream(file)) {
        props = f.newDocumentBuilder().parse(in).getElementsByTagName("property");
      }
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        String name = child(p, "name");
        if (name == null || name.isBlank()) {
          throw new BadInputException("--queues " + file + ": property " + (i + 1)
              + " has no <name>");
        }
        String value = child(p, "value");
        out.put(name.strip(), value == null ? "" : value.strip());
      }
    } catch (ParserConfigurationException | SAXException e) {
      throw new BadInputException("--queues " + file + ": not a Hadoop configuration XML: "
          + e.getMessage(), e);
    }
  }

  private static String child(Element e, String tag) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(tag)) {
        return c.getTextContent();
      }
    }
    return null;
  }
}
