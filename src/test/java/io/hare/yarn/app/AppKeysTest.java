package io.hare.yarn.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** hare-app-default.xml documents exactly the keys of {@link AppKeys}, with the same defaults. */
public class AppKeysTest {

  static Map<String, String> inCode() throws Exception {
    Map<String, String> out = new TreeMap<>();
    for (Field f : AppKeys.class.getFields()) {
      if (!Modifier.isStatic(f.getModifiers()) || f.getName().startsWith("DEFAULT_")
          || f.getName().endsWith("PREFIX") || f.getType() != String.class) {
        continue;
      }
      Field def = AppKeys.class.getField("DEFAULT_" + f.getName());
      out.put((String) f.get(null), String.valueOf(def.get(null)));
    }
    return out;
  }

  private static Map<String, String> documented() throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (InputStream in = AppKeysTest.class.getResourceAsStream("/hare-app-default.xml")) {
      assertNotNull("hare-app-default.xml missing", in);
      Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = d.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        String name = p.getElementsByTagName("name").item(0).getTextContent().trim();
        NodeList desc = p.getElementsByTagName("description");
        assertTrue(name + " has no description",
            desc.getLength() == 1 && !desc.item(0).getTextContent().isBlank());
        String value = p.getElementsByTagName("value").item(0).getTextContent().trim();
        assertTrue("documented twice: " + name, out.put(name, value) == null);
      }
    }
    return out;
  }

  @Test(timeout = 30_000)
  public void defaultsFileMatchesConstants() throws Exception {
    assertEquals(inCode(), documented());
  }

  @Test(timeout = 30_000)
  public void keysFollowTheNamingRules() throws Exception {
    for (String k : inCode().keySet()) {
      assertTrue(k + ": lower-case, dots between levels, hyphens inside",
          k.matches("yarn\\.app\\.hare(\\.[a-z0-9]+(-[a-z0-9]+)*)+"));
    }
  }
}
