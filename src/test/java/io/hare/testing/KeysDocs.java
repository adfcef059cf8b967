package io.hare.testing;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What the tests that keep a keys class and its defaults XML in sync (as Hadoop's
 * TestConfigurationFieldsBase does) compare: the keys a class declares with their
 * {@code DEFAULT_} twins, and the properties a defaults file documents.
 */
public final class KeysDocs {

  private KeysDocs() {}

  /**
   * Key to default of every public static String key constant of {@code keys}; constants named
   * {@code DEFAULT_*} are the defaults and {@code *PREFIX} ones name families, not keys.
   */
  public static Map<String, String> inCode(Class<?> keys) throws Exception {
    Map<String, String> out = new TreeMap<>();
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

  /** Name to value of every property of a defaults file; each must have a description. */
  public static Map<String, String> documented(String resource) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (InputStream in = KeysDocs.class.getResourceAsStream(resource)) {
      assertNotNull(resource + " missing", in);
      Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = d.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        String name = p.getElementsByTagName("name").item(0).getTextContent().trim();
        String value = p.getElementsByTagName("value").item(0).getTextContent().trim();
        NodeList desc = p.getElementsByTagName("description");
        assertTrue(name + " has no description",
            desc.getLength() == 1 && !desc.item(0).getTextContent().isBlank());
        assertTrue("documented twice: " + name, out.put(name, value) == null);
      }
    }
    return out;
  }
}
