package io.hare.core.plan;

import com.google.ortools.Loader;

/** Loads OR-Tools' native libraries once per JVM, before the first solver is built. */
public final class OrTools {

  private static boolean loaded;

  private OrTools() {}

  /** Idempotent and thread-safe; the natives come from the ortools jar on the classpath. */
  public static synchronized void load() {
    if (!loaded) {
      Loader.loadNativeLibraries();
      loaded = true;
    }
  }
}
