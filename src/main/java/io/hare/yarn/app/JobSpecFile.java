package io.hare.yarn.app;

import io.hare.core.BadInputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.apache.hadoop.conf.Configuration;
import org.w3c.dom.Document;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Loads a job spec file (a Hadoop configuration XML file) plus {@code -D} overrides into a
 * {@link Configuration} holding only them (no Hadoop defaults). Throws {@link BadInputException}
 * naming the file when it is missing, unreadable, not well-formed XML (with line and column) or
 * not a {@code <configuration>}; the values themselves are checked by {@link JobSpecValidator}.
 */
public final class JobSpecFile {

  private JobSpecFile() {}

  public static Configuration load(Path file, Map<String, String> overrides)
      throws BadInputException {
    if (!Files.exists(file)) {
      throw new BadInputException(file + ": no such job spec file");
    }
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new BadInputException(file + ": not a readable file");
    }
    checkXml(file);
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()));
    try {
      conf.size(); // parses now, so a problem is reported here and not at first use
    } catch (RuntimeException e) {
      throw new BadInputException(file + ": not a Hadoop configuration file: " + root(e));
    }
    overrides.forEach((k, v) -> conf.set(k.trim(), v, "-D"));
    return conf;
  }

  private static void checkXml(Path file) throws BadInputException {
    Document doc;
    try (InputStream in = Files.newInputStream(file)) {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      // a job spec has no business with DTDs or external entities
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      var builder = f.newDocumentBuilder();
      builder.setErrorHandler(null); // no console noise; the exception says it all
      doc = builder.parse(in);
    } catch (SAXParseException e) {
      throw new BadInputException(file + ":" + e.getLineNumber() + ":" + e.getColumnNumber()
          + ": not well-formed XML: " + e.getMessage());
    } catch (SAXException | ParserConfigurationException e) {
      throw new BadInputException(file + ": not XML: " + e.getMessage());
    } catch (IOException e) {
      throw new BadInputException(file + ": cannot read: " + e.getMessage(), e);
    }
    String rootName = doc.getDocumentElement().getTagName();
    if (!"configuration".equals(rootName)) {
      throw new BadInputException(file + ": not a Hadoop configuration file: the top element is <"
          + rootName + ">, expected <configuration> with <property> elements");
    }
  }

  private static String root(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
