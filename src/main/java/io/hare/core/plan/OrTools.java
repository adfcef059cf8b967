package io.hare.core.plan;

import com.google.ortools.Loader;

/** Loads OR-Tools' native libraries once per JVM (they ship inside the ortools jars). */
public final class OrTools {

  private static volatile boolean loaded;

  private OrTools() {}

  public static void load() {
    if (!loaded) {
      synchronized (OrTools.class) {
        if (!loaded) {
          Loader.loadNativeLibraries();
          loaded = true;
        }
      }
    }
  }
}
