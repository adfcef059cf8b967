package io.hare.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** hare-default.xml documents exactly the keys of {@link SchedulerKeys}, with the same defaults. */
public class SchedulerKeysTest {

  static Map<String, String> keysWithDefaults(Class<?> keys) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (Field f : keys.getFields()) {
      if (!Modifier.isStatic(f.getModifiers()) || f.getName().startsWith("DEFAULT_")
          || f.getName().endsWith("PREFIX") || f.getType() != String.class) {
        continue;
      }
      String key = (String) f.get(null);
      Field def;
      try {
        def = keys.getField("DEFAULT_" + f.getName());
      } catch (NoSuchFieldException e) {
        throw new AssertionError("key constant " + f.getName() + " (" + key
            + ") has no DEFAULT_" + f.getName() + " twin");
      }
      out.put(key, String.valueOf(def.get(null)));
    }
    return out;
  }

  static Map<String, String> documented(String resource) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    try (InputStream in = SchedulerKeysTest.class.getResourceAsStream(resource)) {
      assertNotNull(resource + " missing", in);
      Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = d.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        String name = p.getElementsByTagName("name").item(0).getTextContent().trim();
        String value = p.getElementsByTagName("value").item(0).getTextContent().trim();
        assertTrue(name + " has no description",
            p.getElementsByTagName("description").getLength() == 1
                && !p.getElementsByTagName("description").item(0).getTextContent().isBlank());
        assertTrue("documented twice: " + name, out.put(name, value) == null);
      }
    }
    return out;
  }

  @Test
  public void defaultsFileMatchesConstants() throws Exception {
    Map<String, String> code = keysWithDefaults(SchedulerKeys.class);
    Map<String, String> xml = documented("/hare-default.xml");
    Map<String, String> xmlScheduler = new LinkedHashMap<>();
    xml.forEach((k, v) -> {
      if (k.startsWith(SchedulerKeys.PREFIX)) {
        xmlScheduler.put(k, v);
      }
    });
    assertEquals("keys in code vs hare-default.xml", new TreeSet<>(code.keySet()),
        new TreeSet<>(xmlScheduler.keySet()));
    code.forEach((k, v) -> assertEquals("default of " + k, v, xmlScheduler.get(k)));
  }

  @Test
  public void keysFollowTheNamingRules() throws Exception {
    for (String k : keysWithDefaults(SchedulerKeys.class).keySet()) {
      assertTrue(k + ": lower-case, dots between levels, hyphens inside",
          k.matches("yarn\\.scheduler\\.hare(\\.[a-z0-9]+(-[a-z0-9]+)*)+"));
    }
  }
}
