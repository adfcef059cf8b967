package io.hare.core;

import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * docs/configuration.md lists every key of the three defaults files with its default, so the
 * README's "every configuration key" cannot drift from the code (regenerate it with
 * {@code dist/docs/configuration-md.py}).
 */
public class ConfigurationDocTest {

  @Test(timeout = 60_000)
  public void thePageListsEveryKeyWithItsDefault() throws Exception {
    String page = Files.readString(Path.of("docs/configuration.md"));
    List<String> missing = new ArrayList<>();
    for (String file : List.of("hare-default.xml", "hare-app-default.xml",
        "hare-sim-default.xml")) {
      NodeList props = DocumentBuilderFactory.newInstance().newDocumentBuilder()
          .parse(Path.of("src/main/resources", file).toFile()).getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        String name = p.getElementsByTagName("name").item(0).getTextContent().strip();
        String value = p.getElementsByTagName("value").item(0).getTextContent().strip();
        String row = "| `" + name + "` | " + (value.isEmpty() ? "(none)" : "`" + value + "`")
            + " |";
        if (!page.contains(row)) {
          missing.add(file + ": " + row);
        }
      }
    }
    assertTrue("docs/configuration.md is stale (run dist/docs/configuration-md.py): " + missing,
        missing.isEmpty());
  }
}
